// JavaScript has no static types: the nearest failure at compile time is
// a syntax error on line 3 (a type annotation JavaScript does not have).
let x = 1;
let s: string = x;
console.log(s);
