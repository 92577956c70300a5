#SDP 2015
#g1
1	The	the	DT	-	+	q:i-h-h	_	_
2	cat	cat	NN	-	-	n:x	BV	ARG1
3	sat	sit	VBD	+	+	v:e-i	_	_
4	.	_	.	-	-	_	_	_

#g2
1	Dogs	dog	NNS	-	-	n:x	ARG1
2	bark	bark	VBP	+	+	v:e-i	_
3	.	_	.	-	-	_	_
