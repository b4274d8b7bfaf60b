const r = call_tool("lookup", {id: 7});
console.log(r.name);
