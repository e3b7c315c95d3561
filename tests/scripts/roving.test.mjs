// Roving focus (themes/default/scripts/core/roving.js), with stand-ins for buttons.
import { test } from "node:test";
import assert from "node:assert/strict";
import { rove } from "../../themes/default/scripts/core/roving.js";

function group(count, focused) {
  const buttons = [];
  for (let i = 0; i < count; i++) {
    buttons.push({ tabIndex: i === focused ? 0 : -1, focus() { globalThis.document.activeElement = this; } });
  }
  globalThis.document = { activeElement: buttons[focused] };
  return buttons;
}
function key(name) {
  return { key: name, prevented: false, preventDefault() { this.prevented = true; } };
}

test("arrow keys move the focus and the one tab stop, wrapping at the ends", () => {
  const buttons = group(3, 2);
  const event = key("ArrowRight");
  assert.ok(rove(buttons, event));
  assert.ok(event.prevented);
  assert.equal(document.activeElement, buttons[0]);
  assert.deepEqual(buttons.map((b) => b.tabIndex), [0, -1, -1]);
  rove(buttons, key("ArrowUp"));
  assert.equal(document.activeElement, buttons[2]);
});

test("Home and End go to the first and last; other keys are left alone", () => {
  const buttons = group(4, 1);
  rove(buttons, key("End"));
  assert.equal(document.activeElement, buttons[3]);
  rove(buttons, key("Home"));
  assert.equal(document.activeElement, buttons[0]);
  const enter = key("Enter");
  assert.ok(!rove(buttons, enter));
  assert.ok(!enter.prevented);
});

test("nothing happens when the focus is outside the group", () => {
  const buttons = group(2, 0);
  document.activeElement = {};
  assert.ok(!rove(buttons, key("ArrowRight")));
  assert.deepEqual(buttons.map((b) => b.tabIndex), [0, -1]);
});
