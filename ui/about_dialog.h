// SPDX-License-Identifier: MIT
#pragma once
// Help > About: version, licence, homepage, the libraries it was built with.

class QWidget;

namespace asc::ui {

void showAbout(QWidget *parent);

} // namespace asc::ui
