-- A player's finishes by place in a game's matches of three sides or more
-- (a race of four cars), counted apart from wins, draws and losses: "2,1,0,3"
-- is two firsts, one second, no third and three fourths. A first place also
-- counts as a win. Empty until such a match; races recorded before this
-- column stay counted as they were (a place below the first as a loss).
ALTER TABLE ratings ADD COLUMN places TEXT NOT NULL DEFAULT '';
