// SPDX-License-Identifier: MIT
#include "name_encoding_menu.h"

#include "open/reading_policy.h"

#include <QActionGroup>
#include <vector>

namespace asc::ui {

NameEncodingMenu::NameEncodingMenu(QWidget *parent)
    : QMenu(tr("Name &Encoding"), parent)
{
    setObjectName(QStringLiteral("nameEncoding"));
    auto *group = new QActionGroup(this);
    std::vector<NamedCharset> charsets = {{"", QT_TR_NOOP("As Stored")}};
    for (const NamedCharset &c : legacyNameCharsets())
        charsets.push_back(c);
    for (const auto &[charset, label] : charsets) {
        QAction *action = addAction(*charset ? QString::fromLatin1(label) : tr(label));
        action->setCheckable(true);
        action->setData(QByteArray(charset));
        action->setChecked(!*charset);
        group->addAction(action);
        const QByteArray name(charset);
        connect(action, &QAction::triggered, this, [this, name] { Q_EMIT chosen(name); });
    }
}

void NameEncodingMenu::setCurrent(const QByteArray &charset)
{
    for (QAction *action : actions())
        action->setChecked(action->data().toByteArray() == charset);
}

} // namespace asc::ui
