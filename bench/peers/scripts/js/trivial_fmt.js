console.log("hello", 42);
