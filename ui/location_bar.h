// SPDX-License-Identifier: MIT
#pragma once
// The toolbar: the address (a file or SPEC; Enter opens it), Stop, and the name filter (Esc
// clears it).

#include <QToolBar>

class QLineEdit;

namespace asc::ui {

class LocationBar : public QToolBar {
    Q_OBJECT
public:
    explicit LocationBar(QWidget *parent = nullptr);

    QLineEdit *address() const { return address_; }
    QLineEdit *filter() const { return filter_; }
    QAction *stopAction() const { return stop_; }
    void focusAddress();
    void focusFilter();

Q_SIGNALS:
    void specEntered(const QString &spec);
    void filterChanged(const QString &text);
    void stopRequested();
    void downFromFilter(); // Down in the filter field: on to the results

private:
    QLineEdit *address_;
    QLineEdit *filter_;
    QAction *stop_;
};

} // namespace asc::ui
