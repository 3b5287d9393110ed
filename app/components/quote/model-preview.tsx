import { RotateCcw } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import {
  Box3,
  BufferAttribute,
  BufferGeometry,
  DirectionalLight,
  DoubleSide,
  GridHelper,
  Group,
  HemisphereLight,
  LineBasicMaterial,
  LineSegments,
  MeshStandardMaterial,
  PerspectiveCamera,
  Scene,
  Mesh as ThreeMesh,
  Vector3,
  WebGLRenderer,
} from "three";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";
import { Button } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import type { Mesh } from "~/rules/model3d/types";

/*
 * The quote page's 3D preview. Default export so the page can `React.lazy()` it and keep three.js
 * out of every other bundle.
 *
 * - Renders on demand (orbit/zoom/pan, resize), never in a continuous loop.
 * - Uses the mesh's typed arrays as they are (no copies, never mutated): the part is placed with
 *   the group's transform (scale to mm, Z-up → Y-up, centred on the grid with its lowest point on
 *   it), so changing the customer's scale does not rebuild or re-upload the geometry.
 * - Flat shading from screen-space derivatives: crisp faces for CAD parts with no normal attribute
 *   at all (a 2M-triangle mesh costs positions + indices only), and it lights parts with
 *   inverted winding correctly too.
 */

export interface ModelPreviewProps {
  /** The mesh in file coordinates. */
  mesh: Mesh;
  /** Multiply coordinates by this to get millimetres (unit × customer scale). */
  mmPerUnit: number;
  /** Bounding box size in mm, shown as labels. */
  size: { x: number; y: number; z: number };
  /** Line segments (6 floats each) in file coordinates, drawn in red. */
  problemEdges?: Float32Array;
  /** Triangle soups (9 floats each) in file coordinates: faces needing support, thin walls. */
  highlights?: Highlights;
  className?: string;
}

export type Highlights = { overhang?: Float32Array; thin?: Float32Array };

const PART_COLOR = 0xa9b4c2;
const OVERHANG_COLOR = 0xf59e0b;
const THIN_COLOR = 0xd61f9b;
const EDGE_COLOR = 0xff2020;
const FIELD_OF_VIEW = 35;
/** Camera direction (Y-up world): front-right, from above, like a slicer's default view. */
const VIEW_DIRECTION = new Vector3(0.9, 0.75, 1.3).normalize();

interface Viewer {
  /** Show this mesh (file coordinates), replacing and disposing the previous one. */
  setModel(mesh: Mesh, problemEdges: Float32Array | undefined): void;
  /** Colour faces that need support or are too thin (replacing the previous colouring). */
  setHighlights(highlights: Highlights | undefined): void;
  /** Place the part for `mmPerUnit`, size the grid to it and frame the camera. */
  setScale(mmPerUnit: number): void;
  /** Put the camera back to the framed view. */
  resetView(): void;
  dispose(): void;
}

function formatMm(value: number): string {
  return Number.isFinite(value) ? value.toFixed(1) : "–";
}

/** The smallest 1, 2 or 5 × 10^k that is at least `value`. */
function niceStep(value: number): number {
  if (!(value > 0) || !Number.isFinite(value)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const m of [1, 2, 5, 10]) {
    if (m * power >= value) return m * power;
  }
  return 10 * power;
}

/**
 * One renderer, camera, controls and set of materials for the component's lifetime (so a new
 * upload re-uses the WebGL context); the part's geometry is replaced per mesh.
 */
function createViewer(canvas: HTMLCanvasElement, container: HTMLElement): Viewer {
  // Throws when WebGL 2 is unavailable; the caller shows the fallback.
  const renderer = new WebGLRenderer({ canvas, antialias: true, alpha: true });
  renderer.setClearColor(0x000000, 0);

  const scene = new Scene();
  const camera = new PerspectiveCamera(FIELD_OF_VIEW, 1, 0.1, 1000);
  scene.add(camera);

  scene.add(new HemisphereLight(0xffffff, 0x9aa1ad, 1.5));
  // A head-light from above-left of the camera, so the side in view is always lit.
  const keyLight = new DirectionalLight(0xffffff, 1.9);
  keyLight.position.set(-0.6, 1, 1.4);
  camera.add(keyLight);
  camera.add(keyLight.target);

  const partMaterial = new MeshStandardMaterial({
    color: PART_COLOR,
    roughness: 0.62,
    metalness: 0.05,
    flatShading: true,
    side: DoubleSide, // open shells and inverted windings still show
    // Pushed back a little so red edges on its surface win the depth test.
    polygonOffset: true,
    polygonOffsetFactor: 1,
    polygonOffsetUnits: 1,
  });
  // Problem edges behind the part show faintly; edges in view are drawn at full strength on top.
  const hiddenEdgeMaterial = new LineBasicMaterial({
    color: EDGE_COLOR,
    transparent: true,
    opacity: 0.35,
    depthTest: false,
    depthWrite: false,
  });
  const edgeMaterial = new LineBasicMaterial({ color: EDGE_COLOR });
  // Coloured faces drawn over the part's own (pulled forward instead of pushed back).
  const highlightMaterial = (color: number) =>
    new MeshStandardMaterial({
      color,
      roughness: 0.62,
      metalness: 0.05,
      flatShading: true,
      side: DoubleSide,
      polygonOffset: true,
      polygonOffsetFactor: -1,
      polygonOffsetUnits: -1,
    });
  const overhangMaterial = highlightMaterial(OVERHANG_COLOR);
  const thinMaterial = highlightMaterial(THIN_COLOR);
  let highlightMeshes: ThreeMesh[] = [];
  let shownHighlights: Highlights | undefined;

  // The part and its problem edges share one transform: file coordinates → world.
  const model = new Group();
  model.rotation.x = -Math.PI / 2; // Z-up (3D-print files) → Y-up (three.js)
  scene.add(model);
  const box = new Box3(new Vector3(), new Vector3());
  let modelGeometries: BufferGeometry[] = [];
  let scale = 1;

  let grid: GridHelper | null = null;
  const sphereCenter = new Vector3();
  let sphereRadius = 1;
  /** Radius around `sphereCenter` that holds the part and the grid. */
  let sceneRadius = 1;

  const controls = new OrbitControls(camera, canvas);
  controls.enableDamping = false; // damping needs a render loop

  let frameRequest = 0;
  const render = () => {
    if (frameRequest !== 0) cancelAnimationFrame(frameRequest);
    frameRequest = 0;
    // Tight near/far planes for the current distance: good depth precision at any zoom.
    const distance = camera.position.distanceTo(sphereCenter);
    camera.near = Math.max(distance - sceneRadius, distance * 0.02, 1e-6);
    camera.far = distance + sceneRadius;
    camera.updateProjectionMatrix();
    renderer.render(scene, camera);
  };
  const requestRender = () => {
    if (frameRequest === 0) frameRequest = requestAnimationFrame(render);
  };
  controls.addEventListener("change", requestRender);
  // Until the customer moves the view, a resize (e.g. a phone turned) re-frames the part.
  let viewMoved = false;
  const onControlsStart = () => {
    viewMoved = true;
  };
  controls.addEventListener("start", onControlsStart);
  canvas.addEventListener("webglcontextrestored", requestRender);

  let appliedSize = "";
  /** Match the drawing buffer to the box; true when it changed (which clears the canvas). */
  const updateSize = () => {
    const width = container.clientWidth;
    const height = container.clientHeight;
    const pixelRatio = Math.min(window.devicePixelRatio || 1, 2);
    const key = `${width}x${height}@${pixelRatio}`;
    if (width === 0 || height === 0 || key === appliedSize) return false;
    appliedSize = key;
    renderer.setPixelRatio(pixelRatio);
    renderer.setSize(width, height, false);
    camera.aspect = width / height;
    return true;
  };
  updateSize();
  const observer = new ResizeObserver(() => {
    if (!updateSize()) return;
    if (!viewMoved) resetView();
    render(); // at once, so the cleared canvas is never painted
  });
  observer.observe(container);

  function resetView() {
    // Fit the bounding sphere in the narrower of the two fields of view.
    const vertical = (camera.fov * Math.PI) / 360;
    const horizontal = Math.atan(Math.tan(vertical) * camera.aspect);
    const distance = (sphereRadius / Math.sin(Math.min(vertical, horizontal))) * 1.2;
    controls.target.copy(sphereCenter);
    camera.position.copy(sphereCenter).addScaledVector(VIEW_DIRECTION, distance);
    controls.minDistance = sphereRadius * 0.05;
    controls.maxDistance = distance * 8;
    viewMoved = false;
    controls.update();
    requestRender();
  }

  const setScale = (mmPerUnit: number) => {
    const s = mmPerUnit > 0 && Number.isFinite(mmPerUnit) ? mmPerUnit : 1;
    scale = s;
    const { min, max } = box;
    model.scale.setScalar(s);
    // After the rotation, file (x, y, z) lies at world (x, z, -y): centre x/y, lowest z on y = 0.
    model.position.set((-s * (min.x + max.x)) / 2, -s * min.z, (s * (min.y + max.y)) / 2);

    const sizeX = s * (max.x - min.x);
    const sizeY = s * (max.y - min.y);
    const sizeZ = s * (max.z - min.z);
    sphereRadius = Math.max(Math.hypot(sizeX, sizeY, sizeZ) / 2, 1e-3);
    sphereCenter.set(0, sizeZ / 2, 0);

    // A grid a bit larger than the footprint, with 1/2/5-style cells and a line through the centre.
    if (grid) {
      scene.remove(grid);
      grid.dispose();
    }
    const footprint = Math.max(sizeX, sizeY, sphereRadius * 0.5);
    const step = niceStep(footprint / 8);
    const divisions = Math.max(2, 2 * Math.ceil((footprint * 0.8) / step));
    grid = new GridHelper(divisions * step, divisions, 0x7c8594, 0x9aa3b0);
    const gridMaterial = grid.material as LineBasicMaterial;
    gridMaterial.transparent = true;
    gridMaterial.opacity = 0.55;
    gridMaterial.depthWrite = false;
    // Just below the part, so the grid never shows through a face lying on it.
    grid.position.y = -sphereRadius * 0.002;
    scene.add(grid);
    const gridHalf = (divisions * step) / 2;
    sceneRadius = Math.max(sphereRadius, Math.hypot(gridHalf, gridHalf, sizeZ / 2)) * 1.05;

    resetView();
  };

  const clearHighlights = () => {
    for (const m of highlightMeshes) {
      model.remove(m);
      m.geometry.dispose();
    }
    highlightMeshes = [];
  };

  const setHighlights = (highlights: Highlights | undefined) => {
    clearHighlights();
    shownHighlights = highlights;
    const add = (soup: Float32Array | undefined, material: MeshStandardMaterial) => {
      if (!soup || soup.length < 9) return;
      const geometry = new BufferGeometry();
      geometry.setAttribute("position", new BufferAttribute(soup, 3));
      const m = new ThreeMesh(geometry, material);
      highlightMeshes.push(m);
      model.add(m);
    };
    // Thin walls over support: a thin overhang shows as thin.
    add(highlights?.overhang, overhangMaterial);
    add(highlights?.thin, thinMaterial);
    requestRender();
  };

  const clearModel = () => {
    clearHighlights();
    model.clear();
    for (const geometry of modelGeometries) geometry.dispose();
    modelGeometries = [];
  };

  const setModel = (mesh: Mesh, problemEdges: Float32Array | undefined) => {
    clearModel();
    // The typed arrays are used as they are: no copy, and never modified.
    const geometry = new BufferGeometry();
    geometry.setAttribute("position", new BufferAttribute(mesh.positions, 3));
    geometry.setIndex(new BufferAttribute(mesh.indices, 1));
    geometry.computeBoundingBox();
    if (geometry.boundingBox && !geometry.boundingBox.isEmpty()) box.copy(geometry.boundingBox);
    else box.set(new Vector3(), new Vector3());
    model.add(new ThreeMesh(geometry, partMaterial));
    modelGeometries.push(geometry);

    const edgeFloats = problemEdges ? problemEdges.length - (problemEdges.length % 6) : 0;
    if (problemEdges && edgeFloats > 0) {
      const edgeGeometry = new BufferGeometry();
      edgeGeometry.setAttribute(
        "position",
        new BufferAttribute(
          edgeFloats === problemEdges.length ? problemEdges : problemEdges.subarray(0, edgeFloats),
          3,
        ),
      );
      const hidden = new LineSegments(edgeGeometry, hiddenEdgeMaterial);
      const visible = new LineSegments(edgeGeometry, edgeMaterial);
      hidden.renderOrder = 1;
      visible.renderOrder = 2;
      model.add(hidden, visible);
      modelGeometries.push(edgeGeometry);
    }
    setHighlights(shownHighlights);
    setScale(scale);
  };

  return {
    setModel,
    setHighlights,
    setScale,
    resetView,
    dispose() {
      if (frameRequest !== 0) cancelAnimationFrame(frameRequest);
      frameRequest = 0;
      observer.disconnect();
      canvas.removeEventListener("webglcontextrestored", requestRender);
      controls.removeEventListener("change", requestRender);
      controls.removeEventListener("start", onControlsStart);
      controls.dispose();
      clearModel();
      grid?.dispose();
      partMaterial.dispose();
      hiddenEdgeMaterial.dispose();
      edgeMaterial.dispose();
      overhangMaterial.dispose();
      thinMaterial.dispose();
      renderer.dispose();
    },
  };
}

export default function ModelPreview({
  mesh,
  mmPerUnit,
  size,
  problemEdges,
  highlights,
  className,
}: ModelPreviewProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const viewerRef = useRef<Viewer | null>(null);
  const [unavailable, setUnavailable] = useState(false);

  // The renderer lives as long as the component; on unmount everything is disposed.
  useEffect(() => {
    const canvas = canvasRef.current;
    const container = containerRef.current;
    if (!canvas || !container) return;
    let viewer: Viewer;
    try {
      viewer = createViewer(canvas, container);
    } catch (error) {
      console.warn("3D preview unavailable:", error instanceof Error ? error.message : error);
      setUnavailable(true);
      return;
    }
    viewerRef.current = viewer;
    return () => {
      viewerRef.current = null;
      viewer.dispose();
    };
  }, []);

  // A new mesh replaces the previous geometry (which is disposed) and re-frames the camera.
  useEffect(() => {
    viewerRef.current?.setModel(mesh, problemEdges);
  }, [mesh, problemEdges]);

  useEffect(() => {
    viewerRef.current?.setHighlights(highlights);
  }, [highlights]);

  // A new scale only moves the part, resizes the grid and re-frames the camera: no re-upload.
  useEffect(() => {
    viewerRef.current?.setScale(mmPerUnit);
  }, [mmPerUnit]);

  const x = formatMm(size.x);
  const y = formatMm(size.y);
  const z = formatMm(size.z);
  const hasProblemEdges = (problemEdges?.length ?? 0) >= 6;
  const hasOverhangs = (highlights?.overhang?.length ?? 0) >= 9;
  const hasThinWalls = (highlights?.thin?.length ?? 0) >= 9;
  const legend: Array<[string, string]> = [];
  if (hasProblemEdges) {
    legend.push(["h-0.5 w-4 rounded-full bg-[#ff2020]", "Red edges: open or non-manifold"]);
  }
  if (hasOverhangs) legend.push(["size-2.5 rounded-sm bg-[#f59e0b]", "Orange: needs support"]);
  if (hasThinWalls) legend.push(["size-2.5 rounded-sm bg-[#d61f9b]", "Pink: wall too thin"]);
  const description =
    `3D preview of your part, ${x} mm wide (X), ${y} mm deep (Y) and ${z} mm tall (Z).` +
    (hasProblemEdges ? " Red edges mark open or non-manifold edges." : "") +
    (hasOverhangs ? " Orange faces need support." : "") +
    (hasThinWalls ? " Pink faces are walls too thin for the material." : "");

  return (
    <div
      ref={containerRef}
      data-testid="model-preview"
      className={cn(
        "relative aspect-square w-full overflow-hidden rounded-xl border bg-linear-to-b from-muted/40 to-muted sm:aspect-4/3",
        className,
      )}
    >
      {unavailable ? (
        <div className="absolute inset-0 flex items-center justify-center p-6 pt-14 text-center">
          <p className="max-w-xs text-sm text-muted-foreground">
            3D preview isn't available in this browser. Your quote is not affected.
          </p>
        </div>
      ) : (
        <canvas
          ref={canvasRef}
          role="img"
          aria-label={description}
          className="absolute inset-0 block size-full cursor-grab touch-none outline-none active:cursor-grabbing"
        />
      )}

      <p className="pointer-events-none absolute top-2 left-2 max-w-[calc(100%-1rem)] rounded-md bg-background/85 px-2 py-1 font-medium text-foreground text-xs tabular-nums shadow-xs backdrop-blur-sm">
        <span className="sr-only">Size: </span>X {x} mm × Y {y} mm × Z {z} mm
      </p>

      {unavailable ? null : (
        // Legend and button share one row, so they cannot overlap on a narrow phone.
        <div className="pointer-events-none absolute inset-x-2 bottom-2 flex items-end justify-between gap-2">
          {legend.length > 0 ? (
            <ul
              className="grid min-w-0 gap-0.5 rounded-md bg-background/85 px-2 py-1 text-foreground text-xs shadow-xs backdrop-blur-sm"
              data-testid="preview-legend"
            >
              {legend.map(([swatch, text]) => (
                <li key={text} className="flex items-center gap-1.5">
                  <span aria-hidden="true" className={cn("inline-block shrink-0", swatch)} />
                  {text}
                </li>
              ))}
            </ul>
          ) : (
            <span />
          )}
          <Button
            type="button"
            variant="outline"
            size="sm"
            className="pointer-events-auto bg-background/85 backdrop-blur-sm"
            onClick={() => viewerRef.current?.resetView()}
          >
            <RotateCcw aria-hidden="true" />
            Reset view
          </Button>
        </div>
      )}
    </div>
  );
}
