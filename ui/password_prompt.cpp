// SPDX-License-Identifier: MIT
#include "password_prompt.h"

#include "open/reading_policy.h"

#include <QInputDialog>
#include <QLineEdit>

namespace asc::ui {

bool askArchivePassword(QWidget *parent, const QString &archive)
{
    QInputDialog dialog(parent);
    dialog.setObjectName(QStringLiteral("passwordPrompt"));
    dialog.setWindowTitle(QObject::tr("Password"));
    dialog.setLabelText(QObject::tr("Password for the encrypted entries of “%1”:").arg(archive));
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

} // namespace asc::ui
