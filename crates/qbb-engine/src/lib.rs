//! A UCI chess engine on the quad-bitboard, generic over the SIMD backend.
