"""Cases of the collective family (diopi/collective.h).

Collectives have no baselines: `python main.py --mode collective --world_size 2,4` runs them on N rank processes
at once; every rank draws its inputs from the case's seed and its rank, and the expected values are computed with
numpy from all ranks' inputs (conformance/collective_cases.py expands this file, with the dtypes and reductions the
header documents for each function). Plain data only.
"""

# Shapes of the values each data collective moves: a vector, a matrix (also laid out non-contiguously), and a
# zero-size tensor. Every case's shape is per rank.
VECTOR = (1000,)
MATRIX = (33, 5)
EMPTY = (0, 3)

# One larger all-reduce per world size (float32, 256 Ki elements): more than one chunk of a ring or tree algorithm.
LARGE = (1 << 18,)

# All-to-all: rows of MATRIX's width sent from rank r to rank j.
#   equal:  2 rows to every rank (no split sizes passed);
#   uneven: (r + 2 j) % 3 rows, with 0 for some pairs;
#   one_peer: 3 rows to the next rank only, 0 to every other.
ALL_TO_ALL_SPLITS = ("equal", "uneven", "one_peer")

# Calls issued back to back on one communicator before any output is read.
BACK_TO_BACK = 16
# Communicators alive at once, used interleaved (plus, for 4 ranks and more, two disjoint halves of the world).
COMMUNICATORS = 3

# diopiMatmulAllReduce over the world communicator: (x1, x2) per rank, with and without a bias.
MATMUL_SHAPES = (((8, 16), (16, 6)), ((2, 3, 32), (32, 4)))

# A peer that dies before an all-reduce: the other ranks must return an error within the communicator's timeout.
PEER_DEATH_TIMEOUT_MS = 4000
