// SPDX-License-Identifier: MIT
#pragma once
// View > Name Encoding: the charsets legacy archives were written in most often (Ark and 7-Zip
// offer the same kind of list); "As Stored" is the empty charset.

#include <QMenu>

namespace asc::ui {

class NameEncodingMenu : public QMenu {
    Q_OBJECT
public:
    explicit NameEncodingMenu(QWidget *parent = nullptr);
    void setCurrent(const QByteArray &charset);

Q_SIGNALS:
    void chosen(const QByteArray &charset);
};

} // namespace asc::ui
