// SPDX-License-Identifier: MIT
#include "conflict_question.h"

#include "io/byte_text.h"

#include <QCheckBox>
#include <QMessageBox>
#include <QPushButton>
#include <chrono>
#include <future>

namespace asc::ui {

struct Answer {
    ExistingPolicy policy = ExistingPolicy::Refuse;
    bool all = false;
};

static Answer ask(QWidget *parent, const ExtractConflict &conflict)
{
    const bool earlier = !conflict.earlier.isEmpty();
    QMessageBox box(QMessageBox::Question, QObject::tr("File Exists"),
                    earlier ? QObject::tr("“%1” and “%2” would both be written as “%3”.")
                                  .arg(bytesToText(conflict.earlier), bytesToText(conflict.member), bytesToText(conflict.written))
                            : QObject::tr("“%1” already exists in the destination folder.").arg(bytesToText(conflict.written)),
                    QMessageBox::NoButton, parent);
    box.setObjectName(QStringLiteral("conflictQuestion"));
    box.setInformativeText(earlier ? QObject::tr("Replace the first with the second, skip the second, or keep both (the second under a free name)?")
                                   : QObject::tr("Replace it with the one from the archive, keep it, or keep both (the new one under a free name)?"));
    QPushButton *overwrite = box.addButton(QObject::tr("&Overwrite"), QMessageBox::DestructiveRole);
    QPushButton *skip = box.addButton(QObject::tr("&Skip"), QMessageBox::RejectRole);
    QPushButton *both = box.addButton(QObject::tr("Keep &Both"), QMessageBox::AcceptRole);
    box.setDefaultButton(skip);
    auto *all = new QCheckBox(QObject::tr("&Apply to all"), &box);
    box.setCheckBox(all);
    box.exec();
    Answer answer;
    answer.all = all->isChecked();
    if (box.clickedButton() == overwrite)
        answer.policy = ExistingPolicy::Overwrite;
    else if (box.clickedButton() == both)
        answer.policy = ExistingPolicy::KeepBoth;
    else
        answer.policy = ExistingPolicy::Skip;
    return answer;
}

std::function<ExistingPolicy(const ExtractConflict &, bool *)> conflictQuestion(QPointer<QWidget> parent,
                                                                                std::shared_ptr<std::atomic_bool> stop)
{
    return [parent, stop](const ExtractConflict &conflict, bool *applyToAll) {
        auto answer = std::make_shared<std::promise<Answer>>();
        std::future<Answer> future = answer->get_future();
        // Queued, not blocking: a window being destroyed waits for this worker, and the worker
        // must not wait for that window's event loop.
        QMetaObject::invokeMethod(
            parent.data(), [parent, conflict, answer] { answer->set_value(ask(parent.data(), conflict)); },
            Qt::QueuedConnection);
        while (future.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
            if (stop->load() || !parent)
                return ExistingPolicy::Refuse;
        }
        const Answer got = future.get();
        *applyToAll = got.all;
        return got.policy;
    };
}

} // namespace asc::ui
