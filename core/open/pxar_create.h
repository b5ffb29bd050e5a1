// SPDX-License-Identifier: MIT
#pragma once
// Writing a pxar archive from a folder (the CLI's `pxar-create`), through the facade.

#include "formats/pxar/pxar_writer.h"
