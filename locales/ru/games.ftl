### Texts every game shares (its options after P), and the test game's.

option-given-twice = Параметр { $word } указан дважды.
    .parts = 2
option-unknown = Непонятный параметр: { $word }.
    .parts = 2
