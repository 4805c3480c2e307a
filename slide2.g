# written by gamut; read it in GAP with Read("file.g");
# generators: R, U, C
slide2 := Group([(1,2)(3,4), (1,3)(2,4), (1,2,4,3)]);
