"""Table Companion core: rules engines, game records and the score-pad store.

Standard library only: this package never imports cv2, numpy, kivy, gpiozero or picamera2.
"""
