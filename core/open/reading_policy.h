// SPDX-License-Identifier: MIT
#pragma once
// What the shells decide about reading, in one place: whether a disk image's backing files and
// extents outside its folder are followed (--allow-backing, or a question in the GUI), and the
// charset legacy archive names are decoded from (--charset, View > Name Encoding), the passwords
// encrypted entries are tried with (--password-file, File > Enter Password…).

#include "formats/archive/archive_passwords.h"
#include "formats/archive/name_charset.h"
#include "formats/image/disk_image.h"
