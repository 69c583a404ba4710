"""Text channels: a person writes to the robot from a web page or Telegram; each chat is the
session `<channel>:<chat_id>`. The channel cores here are asyncio code without ROS; the
`chat_web` / `chat_telegram` nodes (phanthy_agent/ros/chat_node.py) connect them to chat/in
and chat/out."""
