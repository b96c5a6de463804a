### Texts every game shares (its options after P), and the test game's.

option-given-twice = Parametr { $word } ukazan dvazhdy.
option-unknown = Neponyatnyi parametr: { $word }.
