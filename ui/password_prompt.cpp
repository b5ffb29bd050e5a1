// SPDX-License-Identifier: MIT
#include "password_prompt.h"

#include "open/reading_policy.h"

#include <QInputDialog>
#include <QLineEdit>

namespace asc::ui {

namespace {

bool askWith(QWidget *parent, const QString &label)
{
    QInputDialog dialog(parent);
    dialog.setObjectName(QStringLiteral("passwordPrompt"));
    dialog.setWindowTitle(QObject::tr("Password"));
    dialog.setLabelText(label);
    dialog.setTextEchoMode(QLineEdit::Password);
    if (dialog.exec() != QDialog::Accepted || dialog.textValue().isEmpty())
        return false;
    QList<QByteArray> passwords = archivePasswords();
    QByteArray entered = dialog.textValue().toUtf8();
    passwords.removeAll(entered);
    passwords.prepend(std::move(entered)); // the newest first: it is the one meant now
    setDefaultArchivePasswords(std::move(passwords));
    dialog.setTextValue(QString(dialog.textValue().size(), QLatin1Char(' '))); // the dialog's copy
    return true;
}

} // namespace

bool askArchivePassword(QWidget *parent, const QString &archive)
{
    return askWith(parent, QObject::tr("Password for the encrypted entries of “%1”:").arg(archive));
}

bool askPasswordFor(QWidget *parent, const QString &spec, const Error &why)
{
    const bool wrong = why.message.startsWith(QLatin1String("wrong password"));
    const QString what = why.message.contains(QLatin1String("LUKS")) ? QObject::tr("the encrypted volume") : QObject::tr("the encrypted entry");
    return askWith(parent, wrong ? QObject::tr("The password given does not open %1 “%2”. Try another:").arg(what, spec)
                                 : QObject::tr("Password for %1 “%2”:").arg(what, spec));
}

} // namespace asc::ui
