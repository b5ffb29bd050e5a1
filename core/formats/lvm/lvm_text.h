// SPDX-License-Identifier: MIT
#pragma once
// LVM2's metadata text ("Text Format Volume Group"): sections `name { ... }`, values `key = v` where v
// is a number, a "string" or a [list] of them, `#` comments. Parsed into a tree; bounded in depth
// and size because the text comes from the disk.

#include "io/result.h"

#include <QByteArray>
#include <QString>
#include <cstdint>
#include <map>
#include <memory>
#include <variant>
#include <vector>

namespace asc::lvm {

struct Value {
    std::variant<int64_t, QByteArray> scalar; // a number or a string
    std::vector<Value> list; // set when the value was a [list]
    bool isList = false;

    bool isNumber() const { return !isList && std::holds_alternative<int64_t>(scalar); }
    bool isString() const { return !isList && std::holds_alternative<QByteArray>(scalar); }
    int64_t number() const { return isNumber() ? std::get<int64_t>(scalar) : 0; }
    QByteArray string() const { return isString() ? std::get<QByteArray>(scalar) : QByteArray(); }
};

struct Section {
    std::map<QByteArray, Value> values;
    // In text order: segments ("segment1", "segment2") and physical volumes keep their order.
    std::vector<std::pair<QByteArray, std::unique_ptr<Section>>> sections;

    const Section *section(QByteArrayView name) const;
    const Value *value(QByteArrayView name) const;
    // A number value; `fallback` when absent or not a number.
    int64_t number(QByteArrayView name, int64_t fallback = -1) const;
    QByteArray string(QByteArrayView name) const;
    // A list of strings (status = ["READ", "WRITE"]); empty when absent.
    std::vector<QByteArray> strings(QByteArrayView name) const;
};

// Parses the text; errors name `where` and the line.
Result<Section> parseText(QByteArrayView text, const QString &where);

} // namespace asc::lvm
