file(READ ${IN} text)
file(WRITE ${OUT} "R\"cei_cl(${text})cei_cl\"\n")
