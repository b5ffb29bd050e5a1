// SPDX-License-Identifier: MIT
#include "bench_settings.h"

#include "bench/bench_defaults.h"

#include <QStandardItemModel>
#include "open/spec.h"

#include "bench/read_strategy.h"
#include "commands_list.h"
#include "io/units.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>
#include <map>

namespace asc::ui {

BenchSettings::BenchSettings(QWidget *parent)
    : QWidget(parent)
{
    QWidget *settings = this;
    auto *settingsLayout = new QVBoxLayout(settings);
    settingsLayout->setContentsMargins(0, 0, 0, 0);
    auto *form = new QFormLayout;
    target_ = new QLineEdit(settings);
    target_->setPlaceholderText(tr("file or SPEC to read"));
    form->addRow(tr("Target"), target_);
    from_ = new QComboBox(settings);
    to_ = new QComboBox(settings);
    for (uint64_t size = bench_defaults::kSmallestBuffer; size <= bench_defaults::kLargestBuffer; size *= 2) {
        from_->addItem(sizeLabel(size), QVariant::fromValue(qulonglong(size)));
        to_->addItem(sizeLabel(size), QVariant::fromValue(qulonglong(size)));
    }
    from_->setCurrentIndex(0);
    to_->setCurrentIndex(to_->count() - 1);
    auto *range = new QHBoxLayout;
    range->addWidget(from_);
    range->addWidget(new QLabel(tr("to"), settings));
    range->addWidget(to_);
    form->addRow(tr("Buffer sizes"), range);
    runs_ = new QSpinBox(settings);
    runs_->setRange(1, 1000);
    runs_->setValue(bench_defaults::kRuns);
    warmup_ = new QSpinBox(settings);
    warmup_->setRange(0, 100);
    warmup_->setValue(bench_defaults::kWarmup);
    auto *repeat = new QHBoxLayout;
    repeat->addWidget(runs_);
    repeat->addWidget(new QLabel(tr("warm-ups"), settings));
    repeat->addWidget(warmup_);
    form->addRow(tr("Runs"), repeat);
    cache_ = new QComboBox(settings);
    cache_->addItem(tr("warm (in page cache)"), QStringLiteral("warm"));
    cache_->addItem(tr("cold (evicted before every run)"), QStringLiteral("cold"));
    form->addRow(tr("Cache"), cache_);
    passes_ = new QSpinBox(settings);
    passes_->setRange(1, 10);
    form->addRow(tr("Passes"), passes_);
    settingsLayout->addLayout(form);
    // Said before the run, not discovered in a flat chart afterwards.
    sizeWarning_ = new QLabel(settings);
    sizeWarning_->setObjectName(QStringLiteral("benchSizeWarning"));
    sizeWarning_->setWordWrap(true);
    sizeWarning_->setStyleSheet(QStringLiteral("QLabel { color: #b35900; }"));
    sizeWarning_->hide();
    settingsLayout->addWidget(sizeWarning_);
    commands_ = new CommandsList(settings);
    auto *commandsBox = new QGroupBox(tr("Commands"), settings);
    auto *commandsLayout = new QVBoxLayout(commandsBox);
    commandsLayout->addWidget(commands_);
    settingsLayout->addWidget(commandsBox);
    buildStrategyBoxes(settingsLayout);
    settingsLayout->addStretch(1);
    restore();
    connect(target_, &QLineEdit::textEdited, this, [this] {
        targetBytes_ = -1;
        updateSizeWarning();
    });
    connect(from_, &QComboBox::currentIndexChanged, this, &BenchSettings::updateSizeWarning);
    connect(to_, &QComboBox::currentIndexChanged, this, &BenchSettings::updateSizeWarning);
    // "to" offers the sizes from "from" up only (and follows it up when it is passed).
    auto limitTo = [this] {
        auto *model = qobject_cast<QStandardItemModel *>(to_->model());
        for (int i = 0; model && i < to_->count(); ++i)
            model->item(i)->setEnabled(i >= from_->currentIndex());
        if (to_->currentIndex() < from_->currentIndex())
            to_->setCurrentIndex(from_->currentIndex());
    };
    connect(from_, &QComboBox::currentIndexChanged, this, limitTo);
    limitTo();
}

// What a user set up last time is what they get: the sweep, repetitions, cache mode, passes,
// strategies and the write tab's folder (not the target: that is the open file).
void BenchSettings::restore()
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("benchmark"));
    if (settings.contains(QStringLiteral("from")))
        setSizes(settings.value(QStringLiteral("from")).toULongLong(), settings.value(QStringLiteral("to")).toULongLong());
    runs_->setValue(settings.value(QStringLiteral("runs"), runs_->value()).toInt());
    warmup_->setValue(settings.value(QStringLiteral("warmup"), warmup_->value()).toInt());
    passes_->setValue(settings.value(QStringLiteral("passes"), passes_->value()).toInt());
    const int cache = cache_->findData(settings.value(QStringLiteral("cache")));
    if (cache >= 0)
        cache_->setCurrentIndex(cache);
    if (settings.contains(QStringLiteral("strategies")))
        setStrategies(settings.value(QStringLiteral("strategies")).toStringList());
}

void BenchSettings::save() const
{
    const BenchConfig c = config();
    QSettings settings;
    settings.beginGroup(QStringLiteral("benchmark"));
    settings.setValue(QStringLiteral("from"), QVariant::fromValue(qulonglong(from_->currentData().toULongLong())));
    settings.setValue(QStringLiteral("to"), QVariant::fromValue(qulonglong(to_->currentData().toULongLong())));
    settings.setValue(QStringLiteral("runs"), c.runs);
    settings.setValue(QStringLiteral("warmup"), c.warmup);
    settings.setValue(QStringLiteral("passes"), c.passes);
    settings.setValue(QStringLiteral("cache"), cache_->currentData());
    settings.setValue(QStringLiteral("strategies"), c.strategies);
}

QString BenchSettings::sizeWarning() const
{
    return sizeWarning_->isHidden() ? QString() : sizeWarning_->text();
}

void BenchSettings::updateSizeWarning()
{
    qint64 bytes = targetBytes_;
    const QString spec = target_->text().trimmed();
    if (bytes < 0 && splitSpec(spec).inner.isEmpty() && QFileInfo(spec).isFile())
        bytes = QFileInfo(spec).size();
    const uint64_t largest = std::max(from_->currentData().toULongLong(), to_->currentData().toULongLong());
    if (bytes < 0 || uint64_t(bytes) >= largest) {
        sizeWarning_->hide();
        return;
    }
    uint64_t whole = 4096; // the smallest buffer that reads the whole target in one call
    while (whole < uint64_t(bytes))
        whole <<= 1;
    sizeWarning_->setText(tr("The target is only %1: every buffer from %2 up reads it in one call, so the points above %2 "
                             "measure the same thing. Choose a larger file or entry, or a smaller range.")
                              .arg(sizeLabel(uint64_t(bytes)), sizeLabel(whole)));
    sizeWarning_->show();
}

void BenchSettings::buildStrategyBoxes(QVBoxLayout *layout)
{
    std::map<QString, QVBoxLayout *> groups;
    const QStringList defaults = {QStringLiteral("read"), QStringLiteral("pread"), QStringLiteral("mmap"), QStringLiteral("uring-qd4"),
                                  QStringLiteral("buffered-stream-zero-copy"), QStringLiteral("source")};
    for (const auto &strategy : readStrategies()) {
        auto it = groups.find(strategy->group());
        if (it == groups.end()) {
            auto *box = new QGroupBox(strategy->group(), this);
            auto *boxLayout = new QVBoxLayout(box);
            boxLayout->setSpacing(0);
            layout->addWidget(box);
            it = groups.emplace(strategy->group(), boxLayout).first;
        }
        auto *check = new QCheckBox(strategy->name(), this);
        check->setToolTip(strategy->description());
        check->setChecked(defaults.contains(strategy->name()));
        check->setObjectName(strategy->name());
        it->second->addWidget(check);
        strategies_.push_back(check);
    }
}

void BenchSettings::setTarget(const QString &spec, qint64 bytes)
{
    target_->setText(spec);
    targetBytes_ = bytes;
    updateSizeWarning();
}

QString BenchSettings::target() const
{
    return target_->text();
}

void BenchSettings::setStrategies(const QStringList &names)
{
    for (QCheckBox *c : strategies_)
        c->setChecked(names.contains(c->objectName()));
}

void BenchSettings::setSizes(uint64_t from, uint64_t to)
{
    from_->setCurrentIndex(std::max(0, from_->findData(QVariant::fromValue(qulonglong(from)))));
    to_->setCurrentIndex(std::max(0, to_->findData(QVariant::fromValue(qulonglong(to)))));
}

void BenchSettings::setRuns(int runs, int warmup)
{
    runs_->setValue(runs);
    warmup_->setValue(warmup);
}

BenchConfig BenchSettings::config() const
{
    BenchConfig c;
    c.spec = target_->text().trimmed();
    for (QCheckBox *check : strategies_)
        if (check->isChecked())
            c.strategies << check->objectName();
    const uint64_t from = from_->currentData().toULongLong();
    const uint64_t to = to_->currentData().toULongLong();
    for (uint64_t size = std::min(from, to); size <= std::max(from, to); size <<= 1)
        c.buffers.push_back(size);
    c.runs = runs_->value();
    c.warmup = warmup_->value();
    c.cache = cache_->currentData().toString() == QLatin1String("cold") ? CacheMode::Cold : CacheMode::Warm;
    c.passes = passes_->value();
    c.commands = commands_->commands();
    return c;
}

} // namespace asc::ui
