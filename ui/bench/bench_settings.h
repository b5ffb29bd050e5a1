// SPDX-License-Identifier: MIT
#pragma once
// What a benchmark run reads and how: the target, the buffer-size range, runs and warm-ups, the
// cache mode, passes, the strategies (grouped) and the user's own commands, remembered across
// restarts; a target smaller than the buffers is said before the run.

#include "bench/bench_result.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QVBoxLayout;

namespace asc::ui {

class CommandsList;

class BenchSettings : public QWidget {
    Q_OBJECT
public:
    explicit BenchSettings(QWidget *parent = nullptr);

    // `bytes`: the target's size when the caller knows it (an entry); -1 asks the file system.
    void setTarget(const QString &spec, qint64 bytes = -1);
    QString target() const;
    QString sizeWarning() const;
    BenchConfig config() const;
    void setStrategies(const QStringList &names);
    void setSizes(uint64_t from, uint64_t to);
    void setRuns(int runs, int warmup);
    CommandsList *commands() const { return commands_; }
    void save() const;

private:
    void buildStrategyBoxes(QVBoxLayout *layout);
    void updateSizeWarning();
    void restore();

    QLineEdit *target_;
    std::vector<QCheckBox *> strategies_;
    CommandsList *commands_;
    QComboBox *from_;
    QComboBox *to_;
    QSpinBox *runs_;
    QSpinBox *warmup_;
    QComboBox *cache_;
    QSpinBox *passes_;
    QLabel *sizeWarning_;
    qint64 targetBytes_ = -1;
};

} // namespace asc::ui
