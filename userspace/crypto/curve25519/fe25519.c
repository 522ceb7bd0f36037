// SPDX-License-Identifier: GPL-2.0
/*
 * fe25519.c - the constants of Edwards25519 shared by both field
 * representations (fe25519.h): d, 2d and sqrt(-1), canonical.
 */
#include "curve25519/fe25519.h"

const u64 c25519_d[4] = {
	0x75eb4dca135978a3ULL, 0x00700a4d4141d8abULL,
	0x8cc740797779e898ULL, 0x52036cee2b6ffe73ULL,
};

const u64 c25519_d2[4] = {
	0xebd69b9426b2f159ULL, 0x00e0149a8283b156ULL,
	0x198e80f2eef3d130ULL, 0x2406d9dc56dffce7ULL,
};

const u64 c25519_sqrtm1[4] = {
	0xc4ee1b274a0ea0b0ULL, 0x2f431806ad2fe478ULL,
	0x2b4d00993dfbd7a7ULL, 0x2b8324804fc1df0bULL,
};
