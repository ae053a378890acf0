import dagre from "@dagrejs/dagre";
import type { Step } from "@/server/flows/flow-schemas.ts";
import { stepParam, type Path, type StepList } from "@/server/flows/step-path.ts";
import { pathWords } from "./flow-labels.tsx";
import { splitShares } from "./step-summary.ts";

// A flow document as a graph, laid out top to bottom (dagre): the start, one node per step, a
// placeholder for each empty path of a branch, split or wait_for (where a step can be added),
// and the end. A step leads to the next one in its list; the last step of each path leads to
// the step after the step that holds the paths; an `exit` leads nowhere.

export type CanvasNode =
  | { id: "start"; kind: "start"; x: number; y: number; width: number; height: number }
  | { id: "end"; kind: "end"; x: number; y: number; width: number; height: number }
  | { id: string; kind: "step"; position: Path; step: Step; x: number; y: number; width: number; height: number }
  /** An empty path: `list` is its position (`[2, "then"]`), where a first step goes. */
  | { id: string; kind: "empty"; list: Path; x: number; y: number; width: number; height: number };

export type CanvasEdge = { id: string; source: string; target: string; label?: string };

export type FlowLayout = { nodes: CanvasNode[]; edges: CanvasEdge[]; width: number; height: number };

export const NODE_SIZE = {
  step: { width: 248, height: 104 },
  empty: { width: 200, height: 56 },
  start: { width: 168, height: 48 },
  end: { width: 168, height: 40 },
} as const;

/** The paths a step opens, each with its list's position part and its edge's label. */
export function pathsOf(step: Step): { side: StepList; label: string; steps: Step[] }[] {
  if (step.type === "branch") {
    return [
      { side: "then", label: "then", steps: step.then },
      { side: "else", label: "else", steps: step.else },
    ];
  }
  if (step.type === "wait_for") {
    return [
      { side: "on_event", label: pathWords("on_event", step), steps: step.on_event },
      { side: "on_timeout", label: pathWords("on_timeout", step), steps: step.on_timeout },
    ];
  }
  if (step.type === "split") {
    const shares = splitShares(step.paths);
    return step.paths.map((p, i) => ({
      side: `paths.${i}.steps` as StepList,
      label: `Path ${i + 1} · ${shares[i]}%`,
      steps: p.steps,
    }));
  }
  return [];
}

/** The flow as positioned nodes and labelled edges; `x`/`y` are each node's top-left corner. */
export function flowLayout(steps: Step[]): FlowLayout {
  type Loose = { from: string; label?: string };
  const nodes: CanvasNode[] = [];
  const edges: CanvasEdge[] = [];
  const link = (from: Loose[], target: string) => {
    for (const { from: source, label } of from) edges.push({ id: `${source}->${target}`, source, target, ...(label ? { label } : {}) });
  };

  /** Draws a list entered by `entries`; returns the loose ends that lead past it. */
  const walk = (list: Step[], base: Path, entries: Loose[]): Loose[] => {
    let loose = entries;
    list.forEach((step, i) => {
      const position: Path = [...base, i];
      const id = stepParam(position);
      nodes.push({ id, kind: "step", position, step, x: 0, y: 0, ...NODE_SIZE.step });
      link(loose, id);
      if (step.type === "exit") loose = [];
      else if (pathsOf(step).length === 0) loose = [{ from: id }];
      else {
        loose = pathsOf(step).flatMap(({ side, label, steps: inner }) => {
          const listPosition: Path = [...position, side];
          if (inner.length > 0) return walk(inner, listPosition, [{ from: id, label }]);
          const emptyId = stepParam(listPosition);
          nodes.push({ id: emptyId, kind: "empty", list: listPosition, x: 0, y: 0, ...NODE_SIZE.empty });
          link([{ from: id, label }], emptyId);
          return [{ from: emptyId }];
        });
      }
    });
    return loose;
  };

  nodes.push({ id: "start", kind: "start", x: 0, y: 0, ...NODE_SIZE.start });
  const loose = walk(steps, [], [{ from: "start" }]);
  if (loose.length > 0) {
    nodes.push({ id: "end", kind: "end", x: 0, y: 0, ...NODE_SIZE.end });
    link(loose, "end");
  }

  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: "TB", nodesep: 32, ranksep: 56, marginx: 16, marginy: 16 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const n of nodes) graph.setNode(n.id, { width: n.width, height: n.height });
  // A labelled edge gets room for its label between the ranks.
  for (const e of edges) graph.setEdge(e.source, e.target, e.label ? { width: 96, height: 20, labelpos: "c" } : {});
  dagre.layout(graph);
  const { width = 0, height = 0 } = graph.graph();
  // dagre orders a step's paths right to left (else before then): mirrored, they read in the document's order.
  for (const n of nodes) {
    const { x, y } = graph.node(n.id);
    n.x = Math.round(width - x - n.width / 2);
    n.y = Math.round(y - n.height / 2);
  }
  return { nodes, edges, width, height };
}
