// wavejit fuzz reproducer
// arch: gfx8
// replay: wavejit run --arch gfx8 --engine diff --state gfx8-movrels-m0-overflow.json gfx8-movrels-m0-overflow.s
s_movrels_b32 s5, s0
s_movreld_b64 s[2:3], s[0:1]
s_endpgm
