#version 330 core
// A unit quad placed where the field lands on screen; uv (0,0) is cell (0,0) at the bottom left.
layout(location = 0) in vec2 corner;
uniform vec4 rect; // NDC: left, bottom, width, height
uniform vec2 extent; // the frame's share of the texture (it fills the texture's bottom-left corner)
out vec2 uv;

void main()
{
    uv = corner * extent;
    gl_Position = vec4(rect.xy + corner * rect.zw, 0.0, 1.0);
}
