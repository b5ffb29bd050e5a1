// SPDX-License-Identifier: MIT
#pragma once
// What a drag out of the tree carries: "text/uri-list" of files extracted when the drop target
// first asks for them, not when the drag starts (a drag dropped nowhere, or back on the window,
// extracted whole folders for nothing).

#include <QMimeData>
#include <functional>
#include <optional>

namespace asc::ui {

class DragExtractionData : public QMimeData {
    Q_OBJECT
public:
    // `extract` runs at most once, on the GUI thread, when the URLs are first asked for; it
    // returns the extracted files' paths (none when the extraction failed or was cancelled).
    explicit DragExtractionData(std::function<QStringList()> extract);

    QStringList formats() const override;
    bool hasFormat(const QString &mimeType) const override;
    bool extracted() const { return paths_.has_value(); }

protected:
    QVariant retrieveData(const QString &mimeType, QMetaType type) const override;

private:
    std::function<QStringList()> extract_;
    mutable std::optional<QStringList> paths_;
};

} // namespace asc::ui
