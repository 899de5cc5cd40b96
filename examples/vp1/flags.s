# VP1 scalar unit: $c flags and source mangling ($c registers start at 0x8000: bit 15 is
# always set). Input: $r6 = 100, $r7 = 200, $r10 = 1000.
mov $r1 -0x1                        # 0xffffffff (19-bit signed immediate)
sethi $r1 0x7fff0000                # high half replaced: 0x7fffffff
add $r2 $c0 $r1 0x1                 # 0x80000000: sf (bit 0) and b20d (bit 20 of the result, 0,
                                    # differs from bit 20 of $r1, 1: bit 3) -> $c0 = 0x8009
sub $r3 $c1 $r1 $r1                 # 0: zf (bit 1), and b20d (bit 20 of the result, 0,
                                    # differs from bit 20 of $r1, 1: bit 3) -> $c1 = 0x800a
add $r4 $r10 (slct $c1 zf $r6d)     # $c1.zf is set: the source is $r(6 ^ 1) = $r7: 1200
add $r5 $r10 (slct $c0 zf $r6d)     # $c0.zf is clear: $r6: 1100
shr $r8 $c2 $r2 0x1f                # 0x80000000 >> 31 = 1, no flag -> $c2 = 0x8000
