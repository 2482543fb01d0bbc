"""Widgets the screens share: the camera picture with labelled pieces, the picker, the pad grid."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.togglebutton import ToggleButton
from kivy.uix.widget import Widget

from ui.i18n import piece_name, tr
from ui.readings import label, unsure

# Outline colours only help; the label text is what everyone reads.
OUTLINE = {
    "pink": (1, 0.5, 0.75), "yellow": (1, 0.9, 0.2), "blue": (0.3, 0.55, 1), "green": (0.3, 0.85, 0.3),
    "black": (0.1, 0.1, 0.1), "gray": (0.6, 0.6, 0.6), "white": (1, 1, 1), "khaki": (0.75, 0.7, 0.45),
    "red": (0.95, 0.25, 0.2), "purple": (0.65, 0.35, 0.85), "gold": (1, 0.8, 0.2),
}


def _inside(box: Any, fw: float, fh: float) -> bool:
    """A box with a size that lies in the frame (pieces added by hand have none: listed, not drawn)."""
    try:
        x, y, w, h = (float(v) for v in box)
    except (TypeError, ValueError):
        return False
    return w > 0 and h > 0 and x < fw and y < fh and x + w > 0 and y + h > 0


class TableView(Widget):
    """The camera picture, fitted into the widget, with each piece boxed and labelled in words.

    ``texture`` is the frame texture (updated in place by the screen); ``objects`` the reading;
    tapping a piece calls ``on_piece(index)``.
    """

    texture = ObjectProperty(None, allownone=True)
    objects = ListProperty()
    kind = StringProperty("tokens")
    lang = StringProperty("en")
    frame_size = ListProperty([1280, 960])
    on_piece: Callable[[int], None] | None = None

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self._labels: list[Label] = []
        self.bind(pos=self.redraw, size=self.redraw, objects=self.redraw, lang=self.redraw)

    def fit(self) -> tuple[float, float, float]:
        """(x0, y0, scale): where the frame's top-left pixel lands and how big a pixel is."""
        fw, fh = self.frame_size
        scale = min(self.width / max(fw, 1), self.height / max(fh, 1))
        x0 = self.x + (self.width - fw * scale) / 2
        y0 = self.y + (self.height + fh * scale) / 2  # top edge, in Kivy's upward y
        return x0, y0, scale

    def show_texture(self, texture: Any, frame_size: tuple[int, int]) -> None:
        """Point the picture at ``texture`` (once per texture, not per frame); boxes are in
        ``frame_size`` pixels, the camera frame's, which the texture may show scaled down."""
        self.texture = texture
        self.frame_size = list(frame_size)
        self.redraw()

    def redraw(self, *_: Any) -> None:
        for lbl in self._labels:
            self.remove_widget(lbl)
        self._labels = []
        self.canvas.before.clear()
        self.canvas.after.clear()
        x0, y0, s = self.fit()
        fw, fh = self.frame_size
        with self.canvas.before:
            Color(0.12, 0.12, 0.12)
            Rectangle(pos=self.pos, size=self.size)
            if self.texture is not None:  # no white box before the first frame
                Color(1, 1, 1)
                Rectangle(texture=self.texture, pos=(x0, y0 - fh * s), size=(fw * s, fh * s))
        shown = [o for o in self.objects if _inside(o.get("box"), fw, fh)]
        with self.canvas.after:
            for obj in shown:
                x, y, w, h = (float(v) for v in obj["box"])
                colour = obj.get("colour") or ("gold" if obj.get("pip_colour") == "gold" else "white")
                Color(*OUTLINE.get(str(colour), (1, 1, 1)))
                Line(rectangle=(x0 + x * s, y0 - (y + h) * s, w * s, h * s), width=dp(2))
        for obj in shown:
            x, y, w, h = (float(v) for v in obj["box"])
            # one word a line, no wider than the piece, so neighbours' labels do not run together
            width = max(w * s, dp(40))
            lbl = Label(text=label(obj, self.kind, self.lang).replace(" ", "\n", 1), font_size=sp(12), bold=True,
                        size_hint=(None, None), color=(1, 1, 1, 1), halign="center",
                        text_size=(width, None), max_lines=2)
            lbl.texture_update()
            lbl.size = (width, lbl.texture_size[1] + dp(2))
            lbl.pos = (x0 + (x + w / 2) * s - width / 2, y0 - y * s - lbl.height)
            with lbl.canvas.before:
                # amber behind the words of a piece the reader is unsure of, black behind the others
                Color(*((0.75, 0.45, 0.0, 0.9) if unsure(obj) else (0, 0, 0, 0.65)))
                Rectangle(pos=lbl.pos, size=lbl.size)
            self.add_widget(lbl)
            self._labels.append(lbl)

    def piece_at(self, tx: float, ty: float) -> int | None:
        """Index of the piece under a touch, or None."""
        x0, y0, s = self.fit()
        if s <= 0:
            return None
        fx, fy = (tx - x0) / s, (y0 - ty) / s
        for i, obj in enumerate(self.objects):
            x, y, w, h = (float(v) for v in (obj.get("box") or [0, 0, 0, 0]))
            pad = dp(8) / s  # a finger is bigger than a die in the picture
            if x - pad <= fx <= x + w + pad and y - pad <= fy <= y + h + pad:
                return i
        return None

    def on_touch_down(self, touch: Any) -> bool:
        if self.collide_point(*touch.pos):
            i = self.piece_at(*touch.pos)
            if i is not None and self.on_piece is not None:
                self.on_piece(i)
                return True
        return super().on_touch_down(touch)


class Picker(ModalView):
    """Choose a piece's fields (colour, group, pips, ...) with big toggle buttons."""

    lang = StringProperty("en")

    def __init__(self, fields: list[tuple[str, tuple[Any, ...]]], current: dict[str, Any], lang: str,
                 on_done: Callable[[dict[str, Any] | None], None], removable: bool = True, **kwargs: Any):
        super().__init__(size_hint=(0.96, 0.94), auto_dismiss=False, **kwargs)
        self.lang = lang
        self.chosen = {name: current.get(name, options[0] if options else None) for name, options in fields}
        self.on_done = on_done
        box = BoxLayout(orientation="vertical", padding=dp(6), spacing=dp(4))
        box.add_widget(Label(text=tr("correct_piece", lang), font_size=sp(18), size_hint_y=None, height=dp(32)))
        for name, options in fields:
            cols = max(1, -(-len(options) // -(-len(options) // 6)))  # even rows of at most 6
            grid = GridLayout(cols=cols, spacing=dp(3), size_hint_y=None)
            rows = (len(options) + cols - 1) // cols
            grid.height = rows * dp(48) + (rows - 1) * dp(3)
            for value in options:
                text = piece_name(str(value), lang) if name == "colour" or name == "kind" else str(value)
                if name == "row":
                    text = tr("row_owner", lang, n=value + 1, name="").rstrip(": ")
                btn = ToggleButton(text=text, group=f"pick-{name}", font_size=sp(15),
                                   state="down" if value == self.chosen[name] else "normal",
                                   allow_no_selection=False, halign="center", valign="middle")
                btn.bind(size=lambda b, sz: setattr(b, "text_size", (sz[0] - dp(4), None)))
                btn.bind(on_release=lambda _b, n=name, v=value: self.chosen.__setitem__(n, v))
                grid.add_widget(btn)
            box.add_widget(grid)
        box.add_widget(Widget())
        bar = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(6))
        ok = Button(text="OK", font_size=sp(20), background_color=(0.2, 0.7, 0.3, 1))
        ok.bind(on_release=lambda *_: self.finish(dict(self.chosen)))
        bar.add_widget(ok)
        if removable:
            rm = Button(text=tr("remove", lang), font_size=sp(18))
            rm.bind(on_release=lambda *_: self.finish({}))
            bar.add_widget(rm)
        cancel = Button(text=tr("cancel", lang), font_size=sp(18))
        cancel.bind(on_release=lambda *_: self.finish(None))
        bar.add_widget(cancel)
        box.add_widget(bar)
        self.add_widget(box)

    def finish(self, result: dict[str, Any] | None) -> None:
        """Close; ``result`` None = cancelled, {} = remove the piece, else the chosen fields."""
        self.dismiss()
        self.on_done(result)


class PadGrid(GridLayout):
    """The paper score pad: a header row and a row per turn or round, as the engine gives it."""

    rows_data = ListProperty()
    cell_font = NumericProperty(sp(16))

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.bind(rows_data=self.rebuild, width=self.rebuild)

    def rebuild(self, *_: Any) -> None:
        self.clear_widgets()
        rows = self.rows_data or [[""]]
        self.cols = max(len(r) for r in rows)
        for n, row in enumerate(rows):
            for i in range(self.cols):
                text = str(row[i]) if i < len(row) else ""
                cell = Label(text=text, font_size=self.cell_font, bold=(n == 0), size_hint_y=None,
                             height=dp(34), halign="left" if i == 0 else "right", valign="middle",
                             shorten=True, shorten_from="right")
                cell.bind(size=lambda c, s: setattr(c, "text_size", (s[0] - dp(6), s[1])))
                with cell.canvas.before:
                    Color(*((0.22, 0.3, 0.4) if n == 0 else ((0.16, 0.16, 0.18) if n % 2 else (0.2, 0.2, 0.22))))
                    rect = Rectangle(pos=cell.pos, size=cell.size)
                cell.bind(pos=lambda c, p, r=rect: setattr(r, "pos", p), size=lambda c, s, r=rect: setattr(r, "size", s))
                self.add_widget(cell)


CELL_COLOURS = {"R": (0.78, 0.22, 0.2, 1), "Y": (0.85, 0.72, 0.12, 1), "G": (0.2, 0.6, 0.28, 1),
                "B": (0.22, 0.38, 0.82, 1)}
CELL_WORDS = {"R": ("R", "R"), "Y": ("Y", "G"), "G": ("G", "Gr"), "B": ("B", "B")}  # en, nl initials


class BoardView(GridLayout):
    """A Buttons board: each cell in its colour with its initial, o for a button, * for a star.

    ``marked`` cells (legal, or the player's buttons when placing stars) are bright, the others
    dimmed; ``tappable`` cells are written ">> R <<" and call ``on_cell(row, col)`` when tapped.
    """

    def __init__(self, rows: list[str], buttons: list[list[int]], stars: list[list[int]],
                 marked: list[list[int]], tappable: list[list[int]], lang: str,
                 on_cell: Callable[[int, int], None] | None = None, **kwargs: Any):
        super().__init__(cols=6, spacing=dp(2), **kwargs)
        on = {tuple(c) for c in marked}
        can = {tuple(c) for c in tappable}
        has_button = {tuple(c) for c in buttons}
        has_star = {tuple(c) for c in stars}
        self.cells: dict[tuple[int, int], Button] = {}
        for r in range(1, 7):
            for c in range(1, 7):
                letter = rows[r - 1][c - 1] if r - 1 < len(rows) and c - 1 < len(rows[r - 1]) else "?"
                rgba = CELL_COLOURS.get(letter, (0.4, 0.4, 0.4, 1))
                if (r, c) not in on:
                    rgba = (rgba[0] * 0.45, rgba[1] * 0.45, rgba[2] * 0.45, 1)
                mark = "*" if (r, c) in has_star else ("o" if (r, c) in has_button else "")
                text = f"{CELL_WORDS.get(letter, (letter, letter))[lang == 'nl']} {mark}".strip()
                if (r, c) in can:  # the cells a tap acts on say so in words, not only by brightness
                    text = f"[b]>> {text} <<[/b]"
                btn = Button(text=text, markup=True, font_size=sp(17),
                             background_normal="", background_color=rgba, disabled=(r, c) not in can,
                             background_disabled_normal="", disabled_color=(1, 1, 1, 0.8))
                if on_cell is not None:
                    btn.bind(on_release=lambda _b, rc=(r, c): on_cell(*rc))
                self.cells[(r, c)] = btn
                self.add_widget(btn)


class MatView(TableView):
    """The camera picture with the play mat check (ui.calibration.MatCheck) drawn over it: the
    markers seen in green, the play area in blue, the three zones in orange, the patches."""

    check = ObjectProperty(None, allownone=True)

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.bind(check=self.redraw)

    def redraw(self, *_: Any) -> None:
        super().redraw()
        check = self.check
        if check is None or self.texture is None:
            return
        x0, y0, s = self.fit()

        def outline(poly: list[tuple[float, float]], width: float) -> None:
            if len(poly) >= 3:
                Line(points=[v for x, y in poly for v in (x0 + x * s, y0 - y * s)], close=True, width=width)

        with self.canvas.after:
            Color(0.25, 0.6, 1)
            outline(check.area, dp(2))
            Color(1, 0.55, 0.1)
            for zone in check.zones:
                outline(zone, dp(1.5))
            for patch, grey in zip(check.patches, (1.0, 0.55), strict=False):
                Color(grey, grey, grey)
                outline(patch, dp(2))
            Color(0.2, 0.95, 0.3)
            for marker in check.marker_outlines:
                outline(marker, dp(2))
