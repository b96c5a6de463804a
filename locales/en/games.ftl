### Texts every game shares (its options after P), and the test game's.

option-given-twice = { $word } is given twice.
option-unknown = Unknown option: { $word }.
