// SPDX-License-Identifier: MIT
#include "io/task_pool.h"
#include "details_pane.h"
#include "open/reading_policy.h"

#include "when_finished.h"

#include "allocation_map.h"
#include "entry_tree_model.h"
#include "hex_view.h"
#include "open_job.h"
#include "io/byte_text.h"
#include "io/units.h"
#include "vfs/path_text.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>
#include <QSplitter>
#include <QBuffer>
#include <QImage>
#include <QImageReader>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTextCursor>
#include <QTabWidget>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace asc::ui {

DetailsPane::DetailsPane(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *split = new QSplitter(Qt::Vertical, this);
    auto *top = new QWidget(split);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    fields_ = new QTextBrowser(top);
    fields_->setOpenLinks(false);
    map_ = new AllocationMap(top);
    map_->setToolTip(tr("Allocation of the virtual disk"));
    map_->hide();
    topLayout->addWidget(map_);
    topLayout->addWidget(fields_, 1);
    // The first 64 KiB as hex, and as text or a picture when they are one (Preview).
    preview_ = new QTabWidget(split);
    preview_->setObjectName(QStringLiteral("preview"));
    hex_ = new HexView(preview_);
    text_ = new QPlainTextEdit(preview_);
    text_->setReadOnly(true);
    image_ = new QLabel(preview_);
    image_->setAlignment(Qt::AlignCenter);
    preview_->addTab(hex_, tr("Hex"));
    preview_->addTab(text_, tr("Text"));
    preview_->addTab(image_, tr("Image"));
    split->addWidget(top);
    split->addWidget(preview_);
    split->setStretchFactor(1, 1);
    layout->addWidget(split);
}

void DetailsPane::setPreview(const QByteArray &head)
{
    hex_->setBytes(head);
    // Text: valid UTF-8 without NUL bytes (the last character may be cut at 64 KiB).
    QByteArrayView view(head);
    while (!view.isEmpty() && (quint8(view.back()) & 0xC0) == 0x80)
        view.chop(1);
    if (!view.isEmpty() && (quint8(view.back()) & 0x80))
        view.chop(1);
    const bool text = !head.isEmpty() && !head.contains('\0') && isValidUtf8(view.toByteArray());
    text_->setPlainText(text ? QString::fromUtf8(view) : QString());
    QImage picture;
    bool image = false;
    if (!text && !head.isEmpty()) {
        // Qt's SVG reader claims every gzip stream as a compressed SVG, then fails with a warning
        // on stderr ("qt.svg: Error while inflating gzip file", once per .gz previewed): gzip
        // data is not offered to it.
        QByteArray bytes = head;
        QBuffer buffer(&bytes);
        QImageReader reader(&buffer);
        image = reader.format() != "svgz" && reader.read(&picture);
    }
    image_->setPixmap(image ? QPixmap::fromImage(picture.scaled(picture.size().boundedTo(QSize(1024, 1024)), Qt::KeepAspectRatio)) : QPixmap());
    preview_->setTabEnabled(1, text);
    preview_->setTabEnabled(2, image);
    if (!preview_->isTabEnabled(preview_->currentIndex()))
        preview_->setCurrentIndex(0);
    if (previewWanted_ && !loading_) {
        previewWanted_ = false;
        showPreview();
    }
    applyHighlight();
}

void DetailsPane::requestPreview()
{
    previewWanted_ = loading_;
    if (!loading_)
        showPreview();
}

void DetailsPane::showPreview()
{
    preview_->setCurrentIndex(preview_->isTabEnabled(2) ? 2 : preview_->isTabEnabled(1) ? 1
                                                                                        : 0);
}

QString DetailsPane::previewKind() const
{
    return preview_->currentIndex() == 2 ? QStringLiteral("image") : preview_->currentIndex() == 1 ? QStringLiteral("text")
                                                                                                   : QStringLiteral("hex");
}

QString DetailsPane::text() const
{
    return fields_->toPlainText();
}

static QString row(const QString &key, const QString &value)
{
    return QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(key.toHtmlEscaped(), value.toHtmlEscaped());
}

static QString jsonText(const QJsonValue &value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray()) {
        // A list of words (filters, features) reads as words.
        QStringList words;
        for (const QJsonValue &item : value.toArray()) {
            if (!item.isString())
                return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
            words << item.toString();
        }
        return words.isEmpty() ? QStringLiteral("none") : words.join(QStringLiteral(", "));
    }
    if (value.isDouble() && value.toDouble() == double(qint64(value.toDouble())))
        return QString::number(qint64(value.toDouble()));
    return value.toVariant().toString();
}

// "libarchive_format" -> "Libarchive format": the format's own field names, readable.
static QString fieldLabel(const QString &key)
{
    QString label = key;
    label.replace(QLatin1Char('_'), QLatin1Char(' '));
    if (!label.isEmpty())
        label[0] = label[0].toUpper();
    return label;
}

void DetailsPane::showSource(const Inspection &source)
{
    const QString &spec = source.spec;
    const uint64_t size = source.size;
    const QJsonObject &imageInfo = source.imageInfo;
    const QJsonObject &info = source.formatInfo;
    const std::vector<DiskExtent> &allocation = source.allocation;
    ++generation_;
    loading_ = false;
    hex_->setPlaceholderText(tr("No data"));
    QString html = QStringLiteral("<table cellspacing=4>");
    html += row(tr("Location"), pathText(textToBytes(spec)));
    if (source.failed) {
        // Nothing was read: no size or format to show, only why.
        html += row(tr("Could not open"), source.failed->toString());
        fields_->setHtml(html + QStringLiteral("</table>"));
        setPreview({});
        map_->clear();
        return;
    }
    // An empty file says so in words (not "0 B" beside an empty hex view).
    html += row(tr("Size"), size == 0 ? tr("empty (0 bytes)") : QStringLiteral("%1 (%2 bytes)").arg(sizeLabel(size)).arg(size));
    if (!imageInfo.isEmpty()) {
        // A disk image: its own header first, the backing chain spelled out, then its content.
        html += row(tr("Image format"), imageInfo.value(QStringLiteral("format")).toString());
        const quint64 virtualSize = quint64(imageInfo.value(QStringLiteral("virtual_size")).toDouble());
        html += row(tr("Virtual size"), QStringLiteral("%1 (%2 bytes)").arg(sizeLabel(virtualSize)).arg(virtualSize));
        QStringList chain;
        for (const auto &link : imageInfo.value(QStringLiteral("backing_chain")).toArray())
            chain << link.toString();
        if (!chain.isEmpty())
            html += row(tr("Backing chain"), spec + QStringLiteral(" → ") + chain.join(QStringLiteral(" → ")));
        for (const auto &warning : imageInfo.value(QStringLiteral("warnings")).toArray())
            html += row(tr("Warning"), warning.toString());
        for (auto it = imageInfo.begin(); it != imageInfo.end(); ++it) {
            if (it.key() == QLatin1String("backing") || it.key() == QLatin1String("warnings") || it.key() == QLatin1String("backing_chain") ||
                it.key() == QLatin1String("format") || it.key() == QLatin1String("virtual_size"))
                continue; // shown above
            html += row(fieldLabel(it.key()), jsonText(it.value()));
        }
        html += QStringLiteral("<tr><td colspan=2><hr></td></tr>");
    }
    html += row(tr("Format"), source.formatName);
    if (source.openError)
        html += row(tr("Not readable as"), source.openError->toString());
    for (auto it = info.begin(); it != info.end(); ++it) {
        if (it.key() == QLatin1String("format") || it.key() == QLatin1String("size") || it.key() == QLatin1String("spec"))
            continue; // shown above
        html += row(fieldLabel(it.key()), jsonText(it.value()));
    }
    fields_->setHtml(html + QStringLiteral("</table>"));
    setPreview(source.head);
    if (allocation.empty())
        map_->clear();
    else
        map_->setExtents(allocation, quint64(imageInfo.value(QStringLiteral("virtual_size")).toDouble()));
}

void DetailsPane::showNode(const EntryTree &tree, int32_t node)
{
    const quint64 generation = ++generation_;
    loading_ = false;
    hex_->setPlaceholderText(tr("No data"));
    const Entry entry = tree.entry(node);
    QString html = QStringLiteral("<table cellspacing=4>");
    html += row(tr("Location"), pathText(textToBytes(tree.spec(node)))); // bytes outside UTF-8 as U+FFFD
    html += row(tr("Name"), pathText(entry.name()));
    html += row(tr("Type"), entryTypeName(entry.type) + (tree.synthesized(node) ? tr(" (implied by deeper paths)") : QString()));
    if (entry.type == EntryType::File)
        html += row(tr("Size"), entry.size == kUnknown ? tr("unknown") : QStringLiteral("%1 (%2 bytes)").arg(sizeLabel(entry.size)).arg(entry.size));
    if (entry.compressedSize != kUnknown)
        html += row(tr("Compressed"), QStringLiteral("%1 bytes").arg(entry.compressedSize));
    if (entry.hasMtime)
        html += row(tr("Modified"), QDateTime::fromSecsSinceEpoch(entry.mtime, Qt::UTC).toString(Qt::ISODate) +
                                        QStringLiteral(" + %1 ns (%2)").arg(entry.mtimeNsec).arg(entry.mtime));
    html += row(tr("Permissions"), QStringLiteral("%1 (%2)").arg(permissionText(entry.type, entry.mode)).arg(entry.mode, 4, 8, QLatin1Char('0')));
    html += row(tr("Owner"), QStringLiteral("%1 (%2)").arg(QString::fromUtf8(entry.uname)).arg(entry.uid));
    html += row(tr("Group"), QStringLiteral("%1 (%2)").arg(QString::fromUtf8(entry.gname)).arg(entry.gid));
    if (!entry.target.isEmpty())
        html += row(tr("Link target"), pathText(entry.target));
    if (entry.type == EntryType::CharDev || entry.type == EntryType::BlockDev)
        html += row(tr("Device"), QStringLiteral("%1:%2").arg(entry.rdevMajor).arg(entry.rdevMinor));
    if (!entry.detail.isEmpty())
        html += row(tr("Details"), QString::fromUtf8(entry.detail));
    if (entry.dataOffset != kUnknown)
        html += row(tr("Data offset"), QString::number(entry.dataOffset));
    const auto &layer = tree.layer(tree.layerOf(node));
    const bool decryptable = entry.encrypted && layer.container && (layer.container->formatName() == QLatin1String("zip") || layer.container->formatName() == QLatin1String("7z"));
    if (entry.encrypted)
        html += row(tr("Encrypted"), decryptable ? tr("yes: File > Enter Password… reads it") : tr("yes: ArchiveScope cannot decrypt this format"));
    if (entry.unsafePath)
        html += row(tr("Unsafe path"), tr("a '..' in its name, or a link to an absolute path: never extracted"));
    if (!entry.problem.isEmpty())
        html += row(tr("Unreadable"), QString::fromUtf8(entry.problem));
    if (!isValidUtf8(entry.path))
        html += row(tr("Path bytes"), QString::fromLatin1(entry.path.toHex(' ')));
    html += row(tr("Archive order"), QString::number(entry.ordinal));
    const QJsonObject info = layer.container ? layer.container->info() : QJsonObject();
    for (auto it = info.begin(); it != info.end(); ++it)
        html += row(tr("Container %1").arg(fieldLabel(it.key()).toLower()), jsonText(it.value()));
    fields_->setHtml(html + QStringLiteral("</table>"));

    setPreview({});
    const QString spec = tree.spec(node);
    if (entry.encrypted && (!decryptable || archivePasswords().isEmpty())) {
        hex_->setPlaceholderText(decryptable ? tr("Encrypted: File > Enter Password… (Ctrl+Shift+P) to read it") : tr("Encrypted: cannot be read"));
        if (decryptable)
            Q_EMIT passwordNeeded(spec, Error::make(ErrorKind::Password, spec, QStringLiteral("entry is encrypted: a password is needed")));
        return;
    }
    if ((entry.type != EntryType::File && entry.type != EntryType::Partition) || !entry.problem.isEmpty() || !layer.container)
        return;
    loading_ = true;
    // Until the first bytes are in, say that they are coming (not "No data").
    hex_->setPlaceholderText(tr("Reading…"));
    QPointer<DetailsPane> self(this);
    ContainerPtr container = layer.container;
    auto head = QtConcurrent::run(taskPool(), [container, entry]() -> Result<QByteArray> {
        auto content = container->open(entry);
        if (!content)
            return std::move(content).error();
        return readHead(**content, kHeadBytes);
    });
    whenFinished(this, std::move(head), [self, generation, spec](Result<QByteArray> head) {
        if (!self || generation != self->generation_)
            return;
        self->loading_ = false;
        self->hex_->setPlaceholderText(head && head->isEmpty() ? tr("Empty (0 bytes)") : tr("No data"));
        if (head)
            self->setPreview(*head);
        else
            self->hex_->setPlainText(head.error().toString());
        if (!head && head.error().kind == ErrorKind::Password)
            Q_EMIT self->passwordNeeded(spec, head.error()); // a wrong one
    });
}

void DetailsPane::highlightLine(qint64 line)
{
    highlight_ = line;
    if (!loading_)
        applyHighlight();
}

void DetailsPane::applyHighlight()
{
    if (highlight_ <= 0 || text_->document()->isEmpty())
        return;
    const qint64 line = std::exchange(highlight_, 0);
    const QTextBlock block = text_->document()->findBlockByNumber(int(line - 1));
    if (!block.isValid()) {
        text_->setPlaceholderText(tr("Line %1 lies past the preview's first bytes").arg(line));
        return;
    }
    preview_->setCurrentIndex(1);
    QTextCursor cursor(block);
    cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
    text_->setTextCursor(cursor);
    text_->centerCursor();
}

} // namespace asc::ui
