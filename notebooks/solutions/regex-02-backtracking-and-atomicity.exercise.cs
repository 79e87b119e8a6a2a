// Each iteration ends with the whitespace it needs, so a run of word characters can be split only one way;
// the last word stands alone. No atomic group: the optimizer proves both loops atomic by itself.
string linePattern = @"^(\w+\s)*\w*$";
