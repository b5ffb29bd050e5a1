// SPDX-License-Identifier: MIT
#include "io/trace.h"
#include "tsk_container.h"

#include "io/byte_text.h"
#include "vfs/problems.h"

#include "formats/partitions/filesystem_magic.h"

#include <QJsonObject>
#include <QSet>
#include <cstring>
#include <tsk/libtsk.h>

namespace asc {

namespace {

// TSK's image: its own header first, then our source.
struct ExternalImage {
    TSK_IMG_INFO info;
    SourcePtr source;
};

ssize_t readImage(TSK_IMG_INFO *img, TSK_OFF_T off, char *buf, size_t len)
{
    auto *image = reinterpret_cast<ExternalImage *>(img);
    if (off < 0)
        return -1;
    const TraceLayer layer("TSK block");
    auto got = image->source->readAt(uint64_t(off), std::span(buf, len));
    return got ? ssize_t(*got) : -1;
}

void closeImage(TSK_IMG_INFO *img)
{
    delete reinterpret_cast<ExternalImage *>(img);
}

void statImage(TSK_IMG_INFO *, FILE *)
{
}

QString tskError()
{
    const char *text = tsk_error_get();
    QString message = text ? QString::fromUtf8(text).simplified() : QStringLiteral("unknown error");
    tsk_error_reset();
    return message;
}

EntryType typeOf(TSK_FS_NAME_TYPE_ENUM type)
{
    switch (type) {
    case TSK_FS_NAME_TYPE_DIR: return EntryType::Dir;
    case TSK_FS_NAME_TYPE_LNK: return EntryType::Symlink;
    case TSK_FS_NAME_TYPE_CHR: return EntryType::CharDev;
    case TSK_FS_NAME_TYPE_BLK: return EntryType::BlockDev;
    case TSK_FS_NAME_TYPE_FIFO: return EntryType::Fifo;
    case TSK_FS_NAME_TYPE_SOCK: return EntryType::Socket;
    default: return EntryType::File;
    }
}

} // namespace

struct TskContainer::Handles {
    // Recursive: extraction reads a file's content from inside the directory walk's callback.
    std::recursive_mutex mutex;
    TSK_IMG_INFO *image = nullptr;
    TSK_FS_INFO *fs = nullptr;
    ~Handles()
    {
        if (fs)
            tsk_fs_close(fs);
        if (image)
            tsk_img_close(image);
    }
};

namespace {

// One file's content through TSK (holes of sparse files read as zeros).
class TskFileSource final : public ByteSource {
public:
    TskFileSource(std::shared_ptr<TskContainer::Handles> handles, TSK_INUM_T inode, uint64_t size, QString name)
        : handles_(std::move(handles)),
          inode_(inode),
          size_(size),
          name_(std::move(name)) {}
    ~TskFileSource() override
    {
        std::lock_guard lock(handles_->mutex);
        if (file_)
            tsk_fs_file_close(file_);
    }
    uint64_t size() const override { return size_; }
    QString name() const override { return name_; }
    Result<size_t> readAt(uint64_t offset, std::span<char> buf) const override
    {
        if (offset >= size_)
            return size_t(0);
        const size_t want = size_t(std::min<uint64_t>(buf.size(), size_ - offset));
        std::lock_guard lock(handles_->mutex);
        if (!file_) {
            file_ = tsk_fs_file_open_meta(handles_->fs, nullptr, inode_);
            if (!file_)
                return Error::format(name_, std::nullopt, QStringLiteral("cannot open inode %1: %2").arg(inode_).arg(tskError()));
        }
        size_t done = 0;
        while (done < want) {
            const ssize_t n = tsk_fs_file_read(file_, TSK_OFF_T(offset + done), buf.data() + done, want - done, TSK_FS_FILE_READ_FLAG_NONE);
            if (n < 0)
                return Error::format(name_, offset + done, QStringLiteral("cannot read file data: %1").arg(tskError()));
            if (n == 0) // the chain ends before the size the entry declares: never padding
                return Error::format(name_, offset + done,
                                     QStringLiteral("the file's data ends after %1 of its %2 bytes: its allocation is damaged").arg(offset + done).arg(size_));
            done += size_t(n);
        }
        return done;
    }

private:
    std::shared_ptr<TskContainer::Handles> handles_;
    TSK_INUM_T inode_;
    uint64_t size_;
    QString name_;
    mutable TSK_FS_FILE *file_ = nullptr;
};

// The entry TSK's file is, under `parent` ("" or "dir/sub/"); nothing for what is not part of the
// tree: ".", "..", and the folders and files TSK makes up (orphans, FAT's special entries).
std::optional<Entry> entryOf(const TSK_FS_FILE *file, QByteArrayView parent)
{
    if (!file->name || !file->name->name)
        return std::nullopt;
    const char *name = file->name->name;
    if (!strcmp(name, ".") || !strcmp(name, "..") || TSK_FS_ISDOT(name) || !*name)
        return std::nullopt;
    if (name[0] == '$' && (!strcmp(name, "$OrphanFiles") || !strcmp(name, "$MBR") || !strcmp(name, "$FAT1") ||
                           !strcmp(name, "$FAT2")))
        return std::nullopt;
    if (parent.contains(QByteArrayView("$OrphanFiles")) || file->name->type == TSK_FS_NAME_TYPE_VIRT ||
        file->name->type == TSK_FS_NAME_TYPE_VIRT_DIR ||
        (file->meta && (file->meta->type == TSK_FS_META_TYPE_VIRT || file->meta->type == TSK_FS_META_TYPE_VIRT_DIR)))
        return std::nullopt;
    // FAT's volume label is an attribute of the volume, not a file; TSK names it this way.
    if (QByteArrayView(name).endsWith("(Volume Label Entry)"))
        return std::nullopt;
    // exFAT's special root entries (allocation bitmap, upcase table, ...), which TSK shows as files.
    if (name[0] == '$' && file->fs_info && file->fs_info->ftype == TSK_FS_TYPE_EXFAT && (parent.isEmpty() || parent == "/")) {
        // TSK's names (tsk_exfatfs.h, which cannot be included outside TSK's own tree).
        static const char *special[] = {"$ALLOC_BITMAP", "$UPCASE_TABLE", "$VOLUME_GUID", "$TEX_FAT", "$ACCESS_CONTROL_TABLE",
                                        "$EMPTY_VOLUME_LABEL"};
        for (const char *s : special)
            if (!strcmp(name, s))
                return std::nullopt;
    }
    // NTFS's and HFS+'s own metadata files ($MFT, $Bitmap, ... $CatalogFile), which TSK lists at the
    // root: ntfs-3g and the Mac show none of them. They are the reserved low inode numbers.
    const bool atRoot = parent.isEmpty() || parent == "/";
    if (file->fs_info && TSK_FS_TYPE_ISNTFS(file->fs_info->ftype) && (parent.startsWith("$Extend/") || parent.startsWith("/$Extend/")))
        return std::nullopt; // below a hidden metadata folder
    if (atRoot && file->fs_info && file->meta) {
        const TSK_FS_TYPE_ENUM type = file->fs_info->ftype;
        if (name[0] == '$' && ((TSK_FS_TYPE_ISNTFS(type) && file->meta->addr < 24) || (TSK_FS_TYPE_ISHFS(type) && file->meta->addr < 16)))
            return std::nullopt;
        // HFS+'s folders for hard-link and directory-link targets, hidden by the Mac.
        if (TSK_FS_TYPE_ISHFS(type) && (QByteArrayView(name).endsWith("HFS+ Private Data") || QByteArrayView(name).startsWith(".HFS+ Private Directory Data")))
            return std::nullopt;
    }
    Entry e;
    e.path = parent.toByteArray() + name;
    if (e.path.startsWith('/'))
        e.path.remove(0, 1);
    e.type = typeOf(file->name->type);
    if (file->meta) {
        const TSK_FS_META *m = file->meta;
        e.mode = uint32_t(m->mode) & 07777;
        e.uid = uint32_t(m->uid);
        e.gid = uint32_t(m->gid);
        e.hasMtime = true;
        e.mtime = int64_t(m->mtime);
        e.mtimeNsec = m->mtime_nano;
        if (e.type == EntryType::File)
            e.size = uint64_t(std::max<TSK_OFF_T>(0, m->size));
        if (e.type == EntryType::Symlink && m->link)
            e.target = QByteArray(m->link);
        if (m->nlink > 1 && e.type == EntryType::File)
            e.detail = QByteArray::number(m->nlink) + " links";
        e.dataOffset = uint64_t(m->addr); // the inode: TSK opens content by it
    }
    return e;
}

struct WalkState {
    const Container::EntrySink *sink = nullptr;
    QString volume;
    uint64_t ordinal = 0;
    bool stopped = false;
    uint64_t visited = 0;
    QSet<size_t> paths; // hashes of the paths listed: 8 bytes a file, not its path again
};

// A folder holding one name twice is damaged (fsck.fat renames the second): the first is the one
// its path reads; the others are listed with the problem, never read as if they were it.
void markRepeatedName(Entry &entry, QSet<size_t> &seen, const QString &volume)
{
    const size_t key = qHash(entry.path, size_t(0x7e57));
    if (!seen.contains(key)) {
        seen.insert(key);
        return;
    }
    entry.problem = "a second entry of this name in its folder: the filesystem is damaged";
    reportProblem(Error::format(volume + QStringLiteral("!/") + bytesToText(entry.path), std::nullopt, QString::fromUtf8(entry.problem)));
}

TSK_WALK_RET_ENUM visit(TSK_FS_FILE *file, const char *parent, void *data)
{
    auto *state = static_cast<WalkState *>(data);
    if (++state->visited > 10'000'000)
        return TSK_WALK_STOP; // hostile filesystems: bounded
    auto entry = entryOf(file, QByteArrayView(parent));
    if (!entry)
        return TSK_WALK_CONT;
    entry->ordinal = state->ordinal++;
    markRepeatedName(*entry, state->paths, state->volume);
    if (!(*state->sink)(*entry)) {
        state->stopped = true;
        return TSK_WALK_STOP;
    }
    return TSK_WALK_CONT;
}

} // namespace

TskContainer::TskContainer(SourcePtr volume)
    : volume_(std::move(volume)),
      handles_(std::make_shared<Handles>())
{
}

TskContainer::~TskContainer() = default;

Result<ContainerPtr> TskContainer::open(SourcePtr volume)
{
    std::shared_ptr<TskContainer> container(new TskContainer(volume));
    auto *external = new ExternalImage;
    std::memset(&external->info, 0, sizeof external->info);
    external->source = volume;
    TSK_IMG_INFO *image = tsk_img_open_external(external, TSK_OFF_T(volume->size()), 512, readImage, closeImage, statImage);
    if (!image) {
        delete external;
        return Error::format(volume->name(), std::nullopt, QStringLiteral("cannot open as a disk: %1").arg(tskError()));
    }
    container->handles_->image = image;
    container->handles_->fs = tsk_fs_open_img(image, 0, TSK_FS_TYPE_DETECT);
    if (!container->handles_->fs) {
        // A FAT32 volume with fewer clusters than FAT32 allows (mkfs.fat -F 32 on a small disk):
        // TSK's detection goes by the count and refuses it; its boot sector says FAT32, and so
        // do Linux and mtools (with its check skipped). Retried as what it says it is.
        char boot[512];
        auto got = volume->readAt(0, std::span(boot, sizeof boot));
        if (got && *got == sizeof boot && std::memcmp(boot + 0x52, "FAT32   ", 8) == 0 && uint8_t(boot[510]) == 0x55 && uint8_t(boot[511]) == 0xAA)
            container->handles_->fs = tsk_fs_open_img(image, 0, TSK_FS_TYPE_FAT32);
    }
    if (!container->handles_->fs)
        return Error::format(volume->name(), 0, QStringLiteral("no filesystem The Sleuth Kit can read: %1").arg(tskError()));
    container->formatName_ = QString::fromUtf8(tsk_fs_type_toname(container->handles_->fs->ftype));
    return ContainerPtr(container);
}

Result<void> TskContainer::list(const EntrySink &sink)
{
    std::lock_guard lock(handles_->mutex);
    WalkState state;
    state.sink = &sink;
    state.volume = volume_->name();
    const auto flags = TSK_FS_DIR_WALK_FLAG_ENUM(TSK_FS_DIR_WALK_FLAG_RECURSE | TSK_FS_DIR_WALK_FLAG_ALLOC);
    if (tsk_fs_dir_walk(handles_->fs, handles_->fs->root_inum, flags, visit, &state) != 0 && !state.stopped)
        return Error::format(volume_->name(), std::nullopt, QStringLiteral("cannot walk the filesystem: %1").arg(tskError()));
    return {};
}

Result<void> TskContainer::listDirectory(const Entry &dir, const EntrySink &sink)
{
    std::lock_guard lock(handles_->mutex);
    TSK_FS_INFO *fs = handles_->fs;
    const QString where = dir.path.isEmpty() ? volume_->name() : volume_->name() + QStringLiteral("!/") + bytesToText(dir.path);
    TSK_FS_DIR *folder = nullptr;
    if (dir.path.isEmpty())
        folder = tsk_fs_dir_open_meta(fs, fs->root_inum);
    else if (dir.dataOffset != kUnknown)
        folder = tsk_fs_dir_open_meta(fs, TSK_INUM_T(dir.dataOffset));
    else
        folder = tsk_fs_dir_open(fs, ("/" + dir.path).constData());
    if (!folder)
        return Error::format(where, std::nullopt, QStringLiteral("cannot read the folder: %1").arg(tskError()));
    const QByteArray parent = dir.path.isEmpty() ? QByteArray() : dir.path + '/';
    const size_t count = tsk_fs_dir_getsize(folder);
    QSet<size_t> seen;
    for (size_t i = 0; i < count; ++i) {
        TSK_FS_FILE *file = tsk_fs_dir_get(folder, i);
        if (!file)
            continue; // an entry TSK cannot load: the others still show
        // Deleted names stay out, as in list().
        std::optional<Entry> entry;
        if (file->name && (file->name->flags & TSK_FS_NAME_FLAG_ALLOC))
            entry = entryOf(file, parent);
        tsk_fs_file_close(file);
        if (!entry)
            continue;
        entry->ordinal = i;
        markRepeatedName(*entry, seen, volume_->name());
        if (!sink(*entry))
            break;
    }
    tsk_fs_dir_close(folder);
    return {};
}

Result<Entry> TskContainer::find(const QByteArray &path)
{
    // Folder by folder from the top, with the same rules as list(): no walk of the whole volume.
    Entry folder;
    folder.type = EntryType::Dir;
    const QList<QByteArray> parts = path.split('/');
    for (qsizetype i = 0; i < parts.size(); ++i) {
        const QByteArray want = folder.path.isEmpty() ? parts[i] : folder.path + '/' + parts[i];
        std::optional<Entry> found;
        const ProblemScope quiet([](const Error &) {}); // a folder's damage is said where it is listed, not by a lookup through it
        auto listed = listDirectory(folder, [&](const Entry &entry) {
            if (entry.path != want)
                return true;
            found = entry;
            return false;
        });
        if (!listed)
            return std::move(listed).error();
        if (!found || (i + 1 < parts.size() && found->type != EntryType::Dir))
            return Error::make(ErrorKind::NotFound, volume_->name(), QStringLiteral("no entry '%1'").arg(bytesToText(path)));
        folder = std::move(*found);
    }
    return folder;
}

Result<SourcePtr> TskContainer::open(const Entry &entry)
{
    const QString name = volume_->name() + QStringLiteral("!/") + bytesToText(entry.path);
    if (entry.type != EntryType::File)
        return Error::make(ErrorKind::Usage, name, QStringLiteral("is a %1, not a file").arg(entryTypeName(entry.type)));
    if (entry.dataOffset == kUnknown)
        return Error::format(name, std::nullopt, QStringLiteral("no inode for this entry"));
    if (!entry.problem.isEmpty())
        return Error::format(name, std::nullopt, QString::fromUtf8(entry.problem));
    return SourcePtr(std::make_shared<TskFileSource>(handles_, TSK_INUM_T(entry.dataOffset), entry.size, name));
}

QJsonObject TskContainer::info() const
{
    std::lock_guard lock(handles_->mutex);
    const TSK_FS_INFO *fs = handles_->fs;
    QJsonObject o;
    o[QStringLiteral("format")] = formatName_;
    o[QStringLiteral("filesystem")] = formatName_;
    o[QStringLiteral("block_size")] = double(fs->block_size);
    o[QStringLiteral("block_count")] = double(fs->block_count);
    o[QStringLiteral("inode_count")] = double(fs->inum_count);
    o[QStringLiteral("root_inode")] = double(fs->root_inum);
    o[QStringLiteral("reader")] = QStringLiteral("The Sleuth Kit %1").arg(QString::fromUtf8(tsk_version_get_str()));
    return o;
}

int probeTskFilesystem(const ByteSource &volume)
{
    const QString fs = detectFilesystem(volume);
    static const QStringList readable = {QStringLiteral("ext2"), QStringLiteral("ext3"), QStringLiteral("ext4"), QStringLiteral("FAT12"),
                                         QStringLiteral("FAT16"), QStringLiteral("FAT32"), QStringLiteral("FAT"), QStringLiteral("exFAT"),
                                         QStringLiteral("NTFS"), QStringLiteral("HFS+"), QStringLiteral("UFS")};
    return readable.contains(fs) ? 40 : 0;
}

} // namespace asc
