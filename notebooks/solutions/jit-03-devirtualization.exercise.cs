var fasterOnNet9 = "foreach";
var fasterOnNet10 = "for";
