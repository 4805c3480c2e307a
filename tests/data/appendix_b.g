# The Rubik's Slide groups of J. F. Johnston III, "On God's Number(s) and the Rubik's Slide
# Extension", Appendix B ("GAP Group Definitions"), as GAP reads them.
#
# The text of Johnston, "On God's Number(s) and the Rubik's Slide Extension" (2016) we work from is an OCR of the thesis: commas
# were inserted between the cycles of one generator ("(1,2,3), (4,5,6), (7,8,9)" for the row
# shift), brackets were garbled, and rs6e is cut off after its first cycles. Restored here:
# each generator is one product of cycles (R = all rows right, U = all columns up, C = the
# turn), which is what the thesis' orders need (Figures 2.4 and 3.5: 8, 36, 362880, 64,
# 1625702400; the 5x5 and 6x6 easy modes have 100 and 144 elements). rs6e is completed with the
# same pattern as rs4e and rs5e, whose cycles it reproduces exactly.
#
#Read(".../rubikslide.g");
#LoadPackage("grape");;
rs2:=Group([(1,2)(3,4),(1,3)(2,4),(1,2,4,3)]);;
rs3e:=Group([(1,2,3)(4,5,6)(7,8,9),(1,7,4)(2,8,5)(3,9,6),(1,3,9,7)(2,6,8,4)]);;
rs3h := Group([(1,2,3)(4,5,6)(7,8,9), (1,7,4)(2,8,5)(3,9,6),
  (1,2,3,6,9,8,7,4)]);;
rs4e:=Group([(1,2,3,4)(5,6,7,8)(9,10,11,12)(13,14,15,16),(1,13,9,5)(2,14,10,6)(3,15,11,7)(4,16,12,8),
  (1,4,16,13)(2,8,15,9)(3,12,14,5)(6,7,11,10)]);;
rs4h := Group([(1,2,3,4)(5,6,7,8)(9,10,11,12)(13,14,15,16),
  (1, 13, 9, 5) (2, 14, 10, 6) (3, 15, 11, 7) (4, 16, 12, 8),
  (1,2,3,4,8,12,16,15,14,13,9,5) (6,7,11,10)]);;
rs5e := Group([(1, 2, 3, 4, 5)(6, 7, 8, 9, 10)(11, 12, 13, 14, 15)(16, 17, 18, 19, 20)(21, 22, 23, 24, 25),
  (1, 21, 16, 11, 6)(2, 22, 17, 12, 7) (3, 23, 18, 13, 8) (4, 24, 19, 14, 9)(5, 25, 20, 15, 10),
  (1, 5, 25, 21)(2, 10, 24, 16)(3, 15, 23, 11)(4,20,22,6) (7,9,19,17) (8,14,18,12)]);;
rs6e := Group([(1,2,3,4,5,6)(7,8,9,10,11,12)(13,14,15,16,17,18)(19,20,21,22,23,24)(25,26,27,28,29,30)(31,32,33,34,35,36), (1,31,25,19,13,7)(2,32,26,20,14,8)(3,33,27,21,15,9)(4,34,28,22,16,10)(5,35,29,23,17,11)(6,36,30,24,18,12), (1,6,36,31)(2,12,35,25)(3,18,34,19)(4,24,33,13)(5,30,32,7)(8,11,29,26)(9,17,28,20)(10,23,27,14)(15,16,22,21)]);;
