// Everything of flashxxl's pipelines in one include: sources, stages, the sort stage, materialize.
#pragma once

#include "flashxxl/stream/filter.hpp"
#include "flashxxl/stream/generator.hpp"
#include "flashxxl/stream/materialize.hpp"
#include "flashxxl/stream/range_source.hpp"
#include "flashxxl/stream/sort.hpp"
#include "flashxxl/stream/stage_memory.hpp"
#include "flashxxl/stream/stream_concept.hpp"
#include "flashxxl/stream/transform.hpp"
#include "flashxxl/stream/unique.hpp"
#include "flashxxl/stream/vector_source.hpp"
