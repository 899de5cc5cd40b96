# VP1 scalar unit: what the scalar unit sends to the vector unit (the s2v bus). Only the
# last word's output is observable: bvecmad's factors and $vc mask.
# Input: $r4 = 0x01ff807f (bytes 127, -128, -1, 1), $r6 = 0x02020202, $r8 = 64 << 11,
#        $r9 = 0x13, $vc0 = 0x4444.
vecms $r9 $vc0 sf 0x0                  # $r9 >>= 4 (arithmetic): 1
bvecmad $r8 $r4q $c1 sf $vc0 sf 0x1    # $c1 bit 0 is 0: baseline $r4, multiplicand $r6;
                                       # prefactor k = ($r8 >> 11) & 0xff = 64;
                                       # factor = (base*256 + k*mult + 0x40) >> 7:
                                       #   32704>>7 = 255, -32576>>7 = -255, -64>>7 = -1, 448>>7 = 3
                                       # masks: bits 1-8 of factors 0,1 and 2,3: 0x807f, 0x01ff
                                       # $vc0 low half, transform 1 (bit i reads bit 2, 6, 10 or
                                       # 14): all set -> 0xffff
