#version 330 core
// The decorations drawn with QPainter (premultiplied RGBA, top row first) over the whole canvas.
in vec2 uv;
out vec4 colour;
uniform sampler2D image;

void main()
{
    colour = texture(image, vec2(uv.x, 1.0 - uv.y));
}
