// SPDX-License-Identifier: MIT
#include "location_bar.h"

#include <QAction>
#include <QApplication>
#include <QLineEdit>
#include <QStyle>

namespace asc::ui {

LocationBar::LocationBar(QWidget *parent)
    : QToolBar(tr("Location"), parent)
{
    setObjectName(QStringLiteral("location"));
    setMovable(false);
    address_ = new QLineEdit(this);
    address_->setPlaceholderText(tr("File or SPEC (outer!/inner/path) — Enter opens it"));
    address_->setClearButtonEnabled(true);
    connect(address_, &QLineEdit::returnPressed, this, [this] {
        if (!address_->text().trimmed().isEmpty())
            Q_EMIT specEntered(address_->text().trimmed());
    });
    filter_ = new QLineEdit(this);
    filter_->setPlaceholderText(tr("Filter names (text or *.glob)"));
    filter_->setClearButtonEnabled(true);
    filter_->setMaximumWidth(280);
    auto *clearFilter = new QAction(filter_);
    clearFilter->setShortcut(QKeySequence(Qt::Key_Escape));
    clearFilter->setShortcutContext(Qt::WidgetShortcut);
    connect(clearFilter, &QAction::triggered, filter_, &QLineEdit::clear);
    filter_->addAction(clearFilter);
    connect(filter_, &QLineEdit::textChanged, this, &LocationBar::filterChanged);
    auto *toResults = new QAction(filter_);
    toResults->setShortcut(QKeySequence(Qt::Key_Down));
    toResults->setShortcutContext(Qt::WidgetShortcut);
    connect(toResults, &QAction::triggered, this, &LocationBar::downFromFilter);
    filter_->addAction(toResults);
    stop_ = new QAction(QApplication::style()->standardIcon(QStyle::SP_BrowserStop), tr("Stop"), this);
    stop_->setObjectName(QStringLiteral("stopLoading"));
    stop_->setToolTip(tr("Stop loading"));
    stop_->setEnabled(false);
    connect(stop_, &QAction::triggered, this, &LocationBar::stopRequested);
    addWidget(address_);
    addAction(stop_);
    addWidget(filter_);
}

void LocationBar::focusAddress()
{
    address_->setFocus(Qt::ShortcutFocusReason);
    address_->selectAll();
}

void LocationBar::focusFilter()
{
    filter_->setFocus(Qt::ShortcutFocusReason);
    filter_->selectAll();
}

} // namespace asc::ui
