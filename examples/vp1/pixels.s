# VP1 scalar unit: bytewise arithmetic on two RGBA8 pixels (byte 0 = R).
#   $r1 = 0xff804010  (R 0x10, G 0x40, B 0x80, A 0xff)
#   $r2 = 0x20c030f0  (R 0xf0, G 0x30, B 0xc0, A 0x20)
badd u $r3 $r1 $r2          # saturating sum:   0x100->0xff, 0x70, 0x140->0xff, 0x11f->0xff = 0xffff70ff
bsub u $r4 $r1 $r2          # clipped at 0:     0, 0x10, 0, 0xdf                          = 0xdf001000
bmax u $r5 $r1 $r2          # per channel:      0xf0, 0x40, 0xc0, 0xff                    = 0xffc040f0
bmul rn u $r6 u $r1 u 0x80  # x*0x80/256, rounded (x*128 + 0x80) >> 8: 8, 0x20, 0x40, 0x80 = 0x80402008
band $r7 $r3 0xf0           # high nibbles of the sum                                     = 0xf0f070f0
