"use client";

import {
  Handle,
  Panel,
  Position,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  type Edge,
  type Node,
  type NodeChange,
  type NodeProps,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useEffect, useMemo } from "react";
import type { Step } from "@/server/flows/flow-schemas.ts";
import { stepParam, type Path } from "@/server/flows/step-path.ts";
import { positionLabel } from "./flow-labels.tsx";
import { flowLayout, pathsOf } from "./flow-layout.ts";
import { stepSummary } from "./step-summary.ts";

/** D69's numbers of one step, as the canvas shows them. */
export type StepNumbers = { reached: number; waiting: number; skipped: number };

export type CanvasProps = {
  steps: Step[];
  /** The selected step's position, if any. */
  selected: Path | null;
  onSelect: (position: Path) => void;
  /** Opens the choice of a new step's type for `list` at `index` (`label` says where); absent when read-only. */
  onAdd?: (list: Path, index: number, label: string) => void;
  /** The numbers of the step at a position (saved flows only). */
  numbers?: (step: Step, position: Path) => StepNumbers | undefined;
  /** The position of the step the last refusal names. */
  faulty: Path | null;
  tags: { id: string; name: string }[];
};

const sameNode = (a: Path | null, b: Path) => a !== null && stepParam(a) === stepParam(b);

const numbersText = (n: StepNumbers) => `${n.reached} reached · ${n.waiting} waiting · ${n.skipped} skipped`;

/** What the + button of a place says: where a step goes. */
function addLabel(steps: Step[], list: Path, index: number, empty: boolean): string {
  if (list.length === 0 && index === 0) return "Add a step at the start";
  if (empty) return `Add a step to ${positionLabel(list, steps)}`;
  return `Add a step after ${positionLabel([...list, index - 1], steps)}`;
}

type AddProps = { steps: Step[]; list: Path; index: number; empty: boolean; onAdd?: CanvasProps["onAdd"] };

function AddButton({ steps, list, index, empty, onAdd }: AddProps) {
  if (!onAdd) return null;
  const label = addLabel(steps, list, index, empty);
  return (
    <button
      type="button"
      // nokey/nodrag: the canvas leaves the button's keys and clicks to the button.
      className="canvas-add nokey nodrag"
      aria-label={label}
      title={label}
      onClick={(e) => {
        e.stopPropagation();
        onAdd(list, index, label);
      }}
    >
      +
    </button>
  );
}

type StepData = {
  steps: Step[];
  label: string;
  summary: string;
  numbers?: StepNumbers;
  faulty: boolean;
  position: Path;
  onAdd?: CanvasProps["onAdd"];
};
type PlaceData = { steps: Step[]; label: string; list: Path; onAdd?: CanvasProps["onAdd"] };

function StepNode({ data, selected }: NodeProps<Node<StepData>>) {
  const { position } = data;
  return (
    <div className={`canvas-node${selected ? " selected" : ""}${data.faulty ? " has-fault" : ""}`}>
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <span className="canvas-node-label">{data.label}</span>
      <span className="canvas-node-summary">{data.summary}</span>
      {data.faulty && <span className="canvas-node-fault">Needs a fix</span>}
      {data.numbers && <span className="canvas-node-numbers">{numbersText(data.numbers)}</span>}
      <AddButton
        steps={data.steps}
        list={position.slice(0, -1)}
        index={(position[position.length - 1] as number) + 1}
        empty={false}
        onAdd={data.onAdd}
      />
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
}

function PlaceNode({ data, type }: NodeProps<Node<PlaceData>>) {
  return (
    <div className={`canvas-place canvas-${type}`}>
      {type !== "start" && <Handle type="target" position={Position.Top} isConnectable={false} />}
      <span>{data.label}</span>
      {type !== "end" && <AddButton steps={data.steps} list={data.list} index={0} empty={type === "empty"} onAdd={data.onAdd} />}
      {type !== "end" && <Handle type="source" position={Position.Bottom} isConnectable={false} />}
    </div>
  );
}

const NODE_TYPES = { step: StepNode, empty: PlaceNode, start: PlaceNode, end: PlaceNode };
const FIT = { maxZoom: 1, minZoom: 0.3, padding: 0.06 };

/**
 * Zoom buttons (a group with a name: xyflow's own Controls put a name on a div without a role),
 * and the drawing fitted in view again when steps come or go.
 */
function ZoomControls({ shape }: { shape: string }) {
  const flow = useReactFlow();
  useEffect(() => {
    void flow.fitView(FIT);
  }, [shape, flow]);
  return (
    <Panel position="bottom-left" role="group" aria-label="Zoom" className="canvas-zoom">
      <button type="button" className="button small" aria-label="Zoom in" onClick={() => void flow.zoomIn()}>
        +
      </button>
      <button type="button" className="button small" aria-label="Zoom out" onClick={() => void flow.zoomOut()}>
        −
      </button>
      <button type="button" className="button small" onClick={() => void flow.fitView(FIT)}>
        Fit
      </button>
    </Panel>
  );
}

/**
 * The flow as a graph (@xyflow/react, laid out by flowLayout): a node per step with its summary,
 * its numbers and a + that adds a step after it; a placeholder with a + for each empty path;
 * the paths' edges labelled. A node is selected by a click, or by Enter once focused (Tab).
 * Below 640 px the outline (StepOutline) replaces it (CSS).
 */
export function FlowCanvas({ steps, selected, onSelect, onAdd, numbers, faulty, tags }: CanvasProps) {
  const layout = useMemo(() => flowLayout(steps), [steps]);
  const byId = new Map<string, Path>();
  const nameOf = (id: string) => (id === "start" ? "the start" : id === "end" ? "the end" : positionLabel(byId.get(id) ?? [], steps));
  const nodes: Node[] = layout.nodes.map((n) => {
    const base = { id: n.id, type: n.kind, position: { x: n.x, y: n.y }, width: n.width, height: n.height, draggable: false };
    if (n.kind === "step") {
      byId.set(n.id, n.position);
      const label = positionLabel(n.position, steps);
      const summary = stepSummary(n.step, { tags });
      const data: StepData = {
        steps,
        label,
        summary,
        numbers: numbers?.(n.step, n.position),
        faulty: faulty !== null && sameNode(faulty, n.position),
        position: n.position,
        onAdd,
      };
      return { ...base, data, selected: sameNode(selected, n.position), ariaLabel: `${label}: ${summary}` };
    }
    if (n.kind === "empty") byId.set(n.id, n.list);
    const label = n.kind === "start" ? "Start" : n.kind === "end" ? "End" : "No steps";
    const data: PlaceData = { steps, label, list: n.kind === "empty" ? n.list : [], onAdd };
    // A role and a name: xyflow sets aria-roledescription on every node, which needs a role.
    const ariaLabel = n.kind === "empty" ? `${positionLabel(n.list, steps)}: no steps` : label;
    return { ...base, data, selectable: false, focusable: false, ariaRole: "group" as const, ariaLabel };
  });
  const edges: Edge[] = layout.edges.map((e) => ({
    ...e,
    type: "smoothstep",
    focusable: false,
    selectable: false,
    ariaLabel: `${e.label ? `${e.label}: ` : ""}from ${nameOf(e.source)} to ${nameOf(e.target)}`,
  }));
  const onNodesChange = (changes: NodeChange[]) => {
    for (const change of changes) {
      if (change.type === "select" && change.selected && byId.has(change.id)) onSelect(byId.get(change.id)!);
    }
  };
  const height = Math.min(Math.max(layout.height + 24, 240), 720);
  return (
    <div className="flow-canvas" style={{ height }}>
      <ReactFlowProvider>
        <ReactFlow
          nodes={nodes}
          edges={edges}
          nodeTypes={NODE_TYPES}
          onNodesChange={onNodesChange}
          nodesDraggable={false}
          nodesConnectable={false}
          fitView
          fitViewOptions={FIT}
          minZoom={FIT.minZoom}
          maxZoom={1.5}
          // The page scrolls over the canvas; zoom with the buttons or a pinch, pan by dragging.
          zoomOnScroll={false}
          preventScrolling={false}
          proOptions={{ hideAttribution: true }}
          aria-label="Flow canvas"
        >
          <ZoomControls shape={layout.nodes.map((n) => n.id).join(" ")} />
        </ReactFlow>
      </ReactFlowProvider>
    </div>
  );
}

/** The outline of the steps (a nested list), for narrow screens: the same selection and + buttons as the canvas. */
export function StepOutline({ steps, selected, onSelect, onAdd, numbers, tags, faulty }: CanvasProps) {
  const list = (items: Step[], base: Path) => (
    <ol className="outline-steps">
      {items.map((step, i) => {
        const position: Path = [...base, i];
        const n = numbers?.(step, position);
        const isFaulty = faulty !== null && sameNode(faulty, position);
        return (
          <li key={i}>
            <div className="outline-row">
              <button
                type="button"
                className={`outline-step${isFaulty ? " has-fault" : ""}`}
                aria-pressed={sameNode(selected, position)}
                onClick={() => onSelect(position)}
              >
                <span className="canvas-node-label">{positionLabel(position, steps)}</span>{" "}
                <span className="canvas-node-summary">{stepSummary(step, { tags })}</span>
                {isFaulty && <span className="canvas-node-fault"> Needs a fix</span>}
                {n && <span className="canvas-node-numbers">{numbersText(n)}</span>}
              </button>
              <AddButton steps={steps} list={base} index={i + 1} empty={false} onAdd={onAdd} />
            </div>
            {pathsOf(step).length > 0 && (
              <ul className="outline-paths">
                {pathsOf(step).map(({ side, label, steps: inner }) => (
                  <li key={side}>
                    <span className="outline-path-label">{label}</span>
                    {inner.length > 0 ? (
                      list(inner, [...position, side])
                    ) : (
                      <div className="outline-row">
                        <span className="muted">No steps</span>
                        <AddButton steps={steps} list={[...position, side]} index={0} empty onAdd={onAdd} />
                      </div>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </li>
        );
      })}
    </ol>
  );
  return (
    <section className="step-outline" aria-label="Steps outline">
      <div className="outline-row">
        <span className="muted">{steps.length === 0 ? "No steps yet." : "Start"}</span>
        <AddButton steps={steps} list={[]} index={0} empty={false} onAdd={onAdd} />
      </div>
      {steps.length > 0 && list(steps, [])}
    </section>
  );
}
