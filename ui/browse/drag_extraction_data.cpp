// SPDX-License-Identifier: MIT
#include "drag_extraction_data.h"

#include <QUrl>

namespace asc::ui {

namespace {
const QString uriList = QStringLiteral("text/uri-list");
}

DragExtractionData::DragExtractionData(std::function<QStringList()> extract)
    : extract_(std::move(extract))
{
}

QStringList DragExtractionData::formats() const
{
    return {uriList};
}

bool DragExtractionData::hasFormat(const QString &mimeType) const
{
    return mimeType == uriList;
}

QVariant DragExtractionData::retrieveData(const QString &mimeType, QMetaType type) const
{
    if (mimeType != uriList)
        return {};
    if (!paths_)
        paths_ = extract_ ? extract_() : QStringList();
    QList<QVariant> urls;
    for (const QString &path : *paths_)
        urls << QUrl::fromLocalFile(path);
    if (type.id() == QMetaType::QByteArray || type.id() == QMetaType::QString) {
        QByteArray text;
        for (const QVariant &url : urls)
            text += url.toUrl().toEncoded() + "\r\n";
        return type.id() == QMetaType::QString ? QVariant(QString::fromUtf8(text)) : QVariant(text);
    }
    return urls;
}

} // namespace asc::ui
