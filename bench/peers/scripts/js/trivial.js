let x = 40;
x += 2;
