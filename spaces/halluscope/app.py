"""The halluscope demo Space: all logic lives in halluscope.space."""

from halluscope.space import build_space

demo = build_space()

if __name__ == "__main__":
    demo.launch()
