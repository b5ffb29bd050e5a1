// SPDX-License-Identifier: MIT
#pragma once
// In the GUI, a disk image naming a backing file outside its own folder asks the user (showing
// the path) instead of following it silently or refusing outright.

namespace asc::ui {

// Installs the question into the process-wide backing policy. Call once, on the UI thread.
void installBackingQuestion();

} // namespace asc::ui
