// Everything a kernel file needs: include this one header.
#pragma once

#include <diopi/diopirt.h>

#include "dtype.hpp"
#include "error.hpp"
#include "isa.hpp"
#include "loops.hpp"
#include "parallel.hpp"
#include "reduce.hpp"
#include "tensor.hpp"
