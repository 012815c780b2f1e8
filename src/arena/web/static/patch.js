// Applies the server's view differences (src/arena/server/viewdiff.py explains the format):
// ["s", path, value] sets, ["d", path] deletes a key, ["t", path, n] cuts a list to n items,
// ["x", path, k] drops a list's first k items.
// Containers on a changed path are copied once per patch and everything else is shared, so
// the previous view stays intact (a page may still hold it) and unchanged parts keep their
// identity for the components that render them.
export function applyPatch(base, ops) {
  const root = { "": base };
  const copied = new Set([root]);
  for (const op of ops) {
    const path = [""].concat(op[1]);
    let node = root;
    for (let i = 0; i < path.length - 1; i++) {
      let child = node[path[i]];
      if (!copied.has(child)) {
        child = Array.isArray(child) ? child.slice() : Object.assign({}, child);
        node[path[i]] = child;
        copied.add(child);
      }
      node = child;
    }
    const last = path[path.length - 1];
    if (op[0] === "s") node[last] = op[2];
    else if (op[0] === "d") delete node[last];
    else if (op[0] === "t") {
      const list = copied.has(node[last]) ? node[last] : node[last].slice();
      list.length = op[2];
      node[last] = list;
      copied.add(list);
    } else if (op[0] === "x") {
      const list = node[last].slice(op[2]);
      node[last] = list;
      copied.add(list);
    }
  }
  return root[""];
}
