// SPDX-License-Identifier: MIT
#pragma once
// A benchmark's values as the wire carries them (remote/bench_request.h): a point as it is, not
// as JSON, so the sweep's point reaches the chart in the form it was measured.

#include "bench/bench_result.h"

#include <QDataStream>

namespace asc {

QDataStream &operator<<(QDataStream &out, const Sample &sample);
QDataStream &operator>>(QDataStream &in, Sample &sample);
QDataStream &operator<<(QDataStream &out, const Summary &summary);
QDataStream &operator>>(QDataStream &in, Summary &summary);
QDataStream &operator<<(QDataStream &out, const BenchPoint &point);
QDataStream &operator>>(QDataStream &in, BenchPoint &point);

// A result whole (its config without the user's commands, which never run in a worker); the
// machine's facts as CBOR.
QDataStream &operator<<(QDataStream &out, const BenchResult &result);
QDataStream &operator>>(QDataStream &in, BenchResult &result);

} // namespace asc
