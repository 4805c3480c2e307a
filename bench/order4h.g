# GAP anchor for `order(slide4_hard)`: the 4x4 hard Rubik's Slide group of
# Johnston, "On God's Number(s) and the Rubik's Slide Extension" (2016), Appendix B. Run: gap -q -b bench/order4h.g
rs4h := Group([(1,2,3,4)(5,6,7,8)(9,10,11,12)(13,14,15,16),
               (1,13,9,5)(2,14,10,6)(3,15,11,7)(4,16,12,8),
               (1,2,3,4,8,12,16,15,14,13,9,5)(6,7,11,10)]);;
Print(Size(rs4h), "\n");
QUIT;
