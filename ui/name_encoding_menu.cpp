// SPDX-License-Identifier: MIT
#include "name_encoding_menu.h"

#include <QActionGroup>

namespace asc::ui {

NameEncodingMenu::NameEncodingMenu(QWidget *parent)
    : QMenu(tr("Name &Encoding"), parent)
{
    setObjectName(QStringLiteral("nameEncoding"));
    auto *group = new QActionGroup(this);
    static const std::pair<const char *, const char *> charsets[] = {
        {"", QT_TR_NOOP("As Stored")},
        {"CP437", "DOS Latin US (CP437)"},
        {"CP850", "DOS Latin 1 (CP850)"},
        {"CP866", "DOS Cyrillic (CP866)"},
        {"CP1250", "Windows Central European (CP1250)"},
        {"CP1251", "Windows Cyrillic (CP1251)"},
        {"CP1252", "Windows Western (CP1252)"},
        {"KOI8-R", "Cyrillic (KOI8-R)"},
        {"ISO-8859-1", "Western (ISO-8859-1)"},
        {"ISO-8859-2", "Central European (ISO-8859-2)"},
        {"SHIFT_JIS", "Japanese (Shift JIS)"},
        {"CP932", "Japanese (CP932)"},
        {"EUC-JP", "Japanese (EUC-JP)"},
        {"GBK", "Chinese Simplified (GBK)"},
        {"BIG5", "Chinese Traditional (Big5)"},
        {"EUC-KR", "Korean (EUC-KR)"},
    };
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
