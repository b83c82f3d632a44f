// What the server's and the web app's import-graph tests share (apps/server/src/importGraph.test.ts,
// apps/web/src/importGraph.test.ts, which takes it as `@dial/server/import-graph`): a folder's source files,
// what a file imports, and the cycles of a graph of imports.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

export interface Edge {
  from: string;
  to: string;
  /** One import that makes the edge, as `file → specifier`, for the failure message. */
  example: string;
}

/** Every TypeScript file (`.ts`, `.tsx`) below `dir`. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every module a file imports, by its specifier, in every form. */
export function specifiersOf(text: string): string[] {
  const found = ts.preProcessFile(text, true, true).importedFiles.map((file) => file.fileName);
  for (const pattern of [
    /new\s+URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url/g,
    /vi\.mock\(\s*['"]([^'"]+)['"]/g,
  ]) {
    for (const match of text.matchAll(pattern)) if (match[1] !== undefined) found.push(match[1]);
  }
  return found;
}

/** The cycles of a graph: for each member of a strongly connected component, the shortest way round. */
export function findCycles(edges: readonly Edge[]): Edge[][] {
  const out = new Map<string, Edge[]>();
  for (const edge of edges) out.set(edge.from, [...(out.get(edge.from) ?? []), edge]);
  const nodes = [...new Set(edges.flatMap((edge) => [edge.from, edge.to]))].sort();

  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const { to } of out.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component);
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);

  const cycles = new Map<string, Edge[]>();
  for (const component of components) {
    const members = new Set(component);
    for (const start of [...component].sort()) {
      const via = new Map<string, Edge>();
      const queue = [start];
      while (queue.length > 0 && !via.has(start)) {
        const node = queue.shift()!;
        for (const edge of out.get(node) ?? []) {
          if (!members.has(edge.to) || via.has(edge.to)) continue;
          via.set(edge.to, edge);
          queue.push(edge.to);
        }
      }
      const walk: Edge[] = [];
      let node = start;
      do {
        const edge = via.get(node)!;
        walk.unshift(edge);
        node = edge.from;
      } while (node !== start);
      // The same cycle found from another of its members starts at its first node by name.
      const first = walk.reduce((best, edge, at) => (edge.from < walk[best]!.from ? at : best), 0);
      const rotated = [...walk.slice(first), ...walk.slice(0, first)];
      cycles.set(rotated.map((edge) => edge.from).join(' '), rotated);
    }
  }
  return [...cycles.values()];
}

/** A cycle as the failure message says it: its nodes in order, and an import that makes each step. */
export function describeCycle(walk: readonly Edge[]): string {
  const names = [...walk.map((edge) => edge.from), walk[0]!.from].join(' → ');
  return `${names} (${walk.map((edge) => edge.example).join('; ')})`;
}
