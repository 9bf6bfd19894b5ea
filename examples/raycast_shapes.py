"""Cast a few rays against a few shapes and print what they hit.

Run: python examples/raycast_shapes.py
"""

from __future__ import annotations

from swept import AABB, Capsule, Circle, Plane, Polygon, Ray, Segment, Sphere, raycast


def main() -> None:
    """Print the hits of a handful of rays, 2D and 3D."""
    shapes_2d = {
        "circle (5, 1) r 1.5": Circle((5, 1), 1.5),
        "box (4, 1)-(8, 5)": AABB((4, 1), (8, 5)),
        "thin wall (500, 240)-(500, 500)": Segment((500, 240), (500, 500)),
        "triangle": Polygon([(6, -2), (9, 0), (6, 2)]),
        "capsule (3, -4)-(3, 4) r 0.5": Capsule((3, -4), (3, 4), 0.5),
        "floor y > 10 (screen)": Plane((0, -1), -10),
    }
    rays_2d = {
        "from (0, 0) along (1, 0)": Ray((0, 0), (1, 0)),
        "from (0, 0) along (0.8, 0.6)": Ray((0, 0), (0.8, 0.6)),
        "from (150, 300) along 0.16 rad": Ray((150, 300), (0.98723, 0.15932), 1000),
    }
    for ray_name, ray in rays_2d.items():
        print(f"ray {ray_name}:")
        for shape_name, shape in shapes_2d.items():
            hit = raycast(ray, shape)
            if hit is None:
                print(f"  {shape_name:34s} miss")
            else:
                inside = "  (started inside)" if hit.started_inside else ""
                print(f"  {shape_name:34s} hit at {hit.distance:8.3f}, point "
                      f"({hit.point.x:.3f}, {hit.point.y:.3f}), normal "
                      f"({hit.normal.x:+.3f}, {hit.normal.y:+.3f}){inside}")
    ray3 = Ray((0, 5, 0), (0, -1, 0))
    print("ray from (0, 5, 0) straight down:")
    for name, shape in {"sphere r 1 at origin": Sphere((0, 0, 0), 1),
                        "floor box": AABB((-5, -1, -5), (5, 0, 5))}.items():
        hit = raycast(ray3, shape)
        assert hit is not None
        print(f"  {name:34s} hit at {hit.distance:.3f}, normal {tuple(hit.normal)}")


if __name__ == "__main__":
    main()
