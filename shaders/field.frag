#version 330 core
// Scalar field -> colour: normalise into the range, then look the colour up in a 256-entry table.
// The rounding matches ss::gui::colormap_index, so exported images equal the live view.
in vec2 uv;
out vec4 colour;
uniform sampler2D field;    // R32F, one texel per cell, sampled nearest
uniform sampler2D colormap; // 256 x 1 RGB8
uniform vec2 range;         // lo, hi

void main()
{
    float v = texture(field, uv).r;
    float t = range.y > range.x ? (v - range.x) / (range.y - range.x) : 0.5;
    int i = t > 0.0 ? (t >= 1.0 ? 255 : int(t * 255.0 + 0.5)) : 0; // NaN fails t > 0.0: index 0
    colour = vec4(texelFetch(colormap, ivec2(i, 0), 0).rgb, 1.0);
}
