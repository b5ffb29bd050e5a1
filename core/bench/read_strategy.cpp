// SPDX-License-Identifier: MIT
#include "read_strategy.h"

#include "strategies/decoder_strategies.h"
#include "strategies/library_strategies.h"
#include "strategies/plain_file_strategies.h"
#include "strategies/pxar_strategies.h"
#include "strategies/source_strategies.h"
#include "write/copy_strategy.h"

namespace asc {

const std::vector<StrategyPtr> &readStrategies()
{
    static const std::vector<StrategyPtr> all = [] {
        std::vector<StrategyPtr> list = {
            makeReadStrategy(),
            makePreadStrategy(),
            makeMmapStrategy(),
            makeStdioStrategy(),
            makeStdioDefaultStrategy(),
            makeQFileStrategy(),
            makeDirectStrategy(),
            makeFadviseStrategy(),
            makeSourceStrategy(),
            makeAsyncStrategy(1),
            makeAsyncStrategy(4),
            makeAsyncStrategy(16),
            makeFramedStrategy(false),
            makeFramedStrategy(true),
            makePxarDecoderStrategy(false),
            makePxarDecoderStrategy(true),
            makePxarAccessorStrategy(false),
            makePxarAccessorStrategy(true),
            makeCopyStrategy(false),
            makeCopyStrategy(true),
        };
        for (StrategyPtr &decoder : makeDecoderStrategies())
            list.push_back(std::move(decoder));
        return list;
    }();
    return all;
}

StrategyPtr findReadStrategy(const QString &name)
{
    for (const auto &strategy : readStrategies()) {
        if (strategy->name() == name)
            return strategy;
    }
    return nullptr;
}

} // namespace asc
